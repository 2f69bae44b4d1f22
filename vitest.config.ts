import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    // Vitest leaves one core to itself by default, which on a 2-core machine runs the files one by
    // one; much of the suite waits on timers and child processes, so two at once cut it from
    // about 300 s to 190 s in the same hour.
    maxWorkers: 2,
    hookTimeout: 60_000,
    // Every test file's temporary folders are removed after it, and the run fails if any are left.
    globalSetup: ["test/helpers/private-tmp.ts"],
    setupFiles: ["test/helpers/cleanup.ts"],
  },
});
