import { defineConfig } from "tsup";

// Dependencies are bundled into the output: loading fastify, pino and the rest from a few
// chunks instead of a few hundred files starts the server 40-60 ms sooner (bench/README.md). The
// banner gives the bundled CommonJS code the `require` it expects for Node's own modules. Left
// external: ajv (with ajv-formats), which the lazy validators load from node_modules on first
// use, and pg's optional native binding, which is only resolved where it is installed.
export default defineConfig({
  entry: { cli: "src/cli.ts", index: "src/index.ts" },
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  // dist/ also holds the published catalogs: tsup's clean removes everything ("**/*") but what
  // these negated patterns keep.
  clean: ["!catalog/**", "!.catalog-*/**"],
  splitting: true,
  dts: false,
  // Every package but those (tsup's noExternal wins over external, so the exceptions are here).
  noExternal: [/^(?!(ajv|ajv-formats|pg-native)(\/|$))/],
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
});
