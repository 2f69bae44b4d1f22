import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Every test file's temporary folders are removed after it, and the run fails if any are left.
    globalSetup: ["test/helpers/private-tmp.ts"],
    setupFiles: ["test/helpers/cleanup.ts"],
  },
});
