#!/usr/bin/env node
import { Command, Option } from "commander";
import type { ReportFormat } from "../build/diagnostics.js";
import type { CheckResult } from "../build/pipeline.js";
import { readConfig } from "./config.js";

// Each command loads only what it needs: `serve` must start fast and never loads the compiler.
const compiler = () => import("../build/pipeline.js");

/** The `frontdesk` command: what editors, CI and operators run. */
const program = new Command("frontdesk").description("Build and serve the Frontdesk catalog API").showHelpAfterError();

const formatOption = () =>
  new Option("--format <format>", "report format (github prints pull-request annotations)")
    .choices(["text", "github"])
    .default(process.env.GITHUB_ACTIONS === "true" ? "github" : "text");

async function report(result: CheckResult, format: ReportFormat): Promise<void> {
  const { formatDiagnostic } = await import("../build/diagnostics.js");
  for (const d of result.diagnostics) console.error(formatDiagnostic(d, format));
}

function counts(result: CheckResult): string {
  const byKind = new Map<string, number>();
  for (const f of result.files) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
  return [...byKind].map(([kind, n]) => `${n} ${kind}`).join(", ");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

program
  .command("validate")
  .description("check every content file and report all mistakes; exit 1 on any error")
  .option("--content <dir>", "content folder", process.env.FRONTDESK_CONTENT ?? "content")
  .addOption(formatOption())
  .action(async (opts: { content: string; format: ReportFormat }) => {
    const result = await (await compiler()).checkContent(opts.content);
    await report(result, opts.format);
    console.error(`${counts(result)}; ${plural(result.errors, "error")}, ${plural(result.warnings, "warning")}`);
    process.exitCode = result.errors > 0 ? 1 : 0;
  });

program
  .command("build")
  .description("validate the content and compile it into the catalog folder")
  .option("--content <dir>", "content folder", process.env.FRONTDESK_CONTENT ?? "content")
  .option("--catalog <dir>", "catalog folder", process.env.FRONTDESK_CATALOG ?? "dist/catalog")
  .addOption(formatOption())
  .action(async (opts: { content: string; catalog: string; format: ReportFormat }) => {
    const result = await (await compiler()).buildCatalog({ content: opts.content, catalog: opts.catalog });
    await report(result, opts.format);
    const time = `${Math.round(result.milliseconds)} ms`;
    const tally = `${plural(result.errors, "error")}, ${plural(result.warnings, "warning")}`;
    if (result.published) {
      console.error(`built ${opts.catalog} (${counts(result)}; ${tally}) in ${time}`);
    } else {
      console.error(`build failed: ${tally}; nothing was published (${time})`);
      process.exitCode = 1;
    }
  });

program
  .command("schemas")
  .description("write the content JSON Schemas for editors' YAML tooling")
  .option("--out <dir>", "output folder", "schemas")
  .action(async (opts: { out: string }) => {
    const { writeEditorSchemas } = await import("../build/editor-schemas.js");
    for (const file of await writeEditorSchemas(opts.out)) console.error(`wrote ${file}`);
  });

program
  .command("serve")
  .description("serve the API from the compiled catalog (PORT, HOST, FRONTDESK_CATALOG, PUBLIC_BASE_URL)")
  .action(async () => {
    const { serve } = await import("./serve.js");
    await serve(readConfig(process.env));
  });

await program.parseAsync();
