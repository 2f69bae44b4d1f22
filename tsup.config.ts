import { defineConfig } from "tsup";

// Dependencies stay external: a fully bundled ESM build breaks on their dynamic require calls.
export default defineConfig({
  entry: { cli: "src/cli.ts", index: "src/index.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  // Clean only the code: dist/ also holds the published catalogs.
  clean: ["*.js", "*.js.map"],
  splitting: true,
  dts: false,
});
