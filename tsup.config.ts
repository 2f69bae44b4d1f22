import { defineConfig } from "tsup";

// Dependencies are bundled into the output: loading fastify, pino and the rest from a few
// chunks instead of a few hundred files measured at 90 ms less to a first answer. The banner
// gives the bundled CommonJS code the `require` it expects for Node's own modules. Left
// external: what is loaded on demand from node_modules (ajv, by the lazy validators) and what
// must be resolved where it is installed (pg's optional native binding, the test tools).
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
