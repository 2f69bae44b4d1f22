#!/usr/bin/env node
import { Command, InvalidArgumentError, Option } from "commander";
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
  const { printDiagnostics } = await import("../build/terminal.js");
  printDiagnostics(result.diagnostics, format);
}

async function summary(ok: boolean, text: string): Promise<void> {
  const { printSummary } = await import("../build/terminal.js");
  printSummary(ok, text);
}

function counts(result: CheckResult): string {
  const byKind = new Map<string, number>();
  for (const f of result.files) byKind.set(f.kind, (byKind.get(f.kind) ?? 0) + 1);
  return [...byKind].map(([kind, n]) => `${n} ${kind}`).join(", ");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A store that cannot open (database unreachable, data file in use) is one line and exit 1, not a stack trace. */
async function reportingStoreErrors(run: () => Promise<unknown>): Promise<void> {
  const { StoreError } = await import("./store/store.js");
  try {
    await run();
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    console.error(error.message);
    process.exitCode = 1;
  }
}

program
  .command("validate")
  .description("check every content file and report all mistakes; exit 1 on any error")
  .option("--content <dir>", "content folder", process.env.FRONTDESK_CONTENT ?? "content")
  .addOption(formatOption())
  .action(async (opts: { content: string; format: ReportFormat }) => {
    const result = await (await compiler()).checkContent(opts.content);
    await report(result, opts.format);
    await summary(result.errors === 0, `${counts(result)}; ${plural(result.errors, "error")}, ${plural(result.warnings, "warning")}`);
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
      await summary(true, `built ${opts.catalog} (${counts(result)}; ${tally}) in ${time}`);
    } else {
      await summary(false, `build failed: ${tally}; nothing was published (${time})`);
      process.exitCode = 1;
    }
  });

program
  .command("publish")
  .description("write a built catalog as a content-addressed bundle and the latest.json pointer, for any static host (instances follow it with FRONTDESK_CATALOG_URL)")
  .option("--catalog <dir>", "built catalog", process.env.FRONTDESK_CATALOG ?? "dist/catalog")
  .requiredOption("--out <dir>", "the folder the host serves")
  .option("--keep <n>", "bundles to keep in all (the one the pointer names among them); older ones are removed", (value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("give a whole number of at least 1");
    return n;
  })
  .option("--sign-key <file>", "sign the bundle with this ed25519 private key (PEM); instances check it with FRONTDESK_CATALOG_PUBLIC_KEY")
  .action(async (opts: { catalog: string; out: string; keep?: number; signKey?: string }) => {
    const { publishBundle } = await import("../build/publish-bundle.js");
    const { CatalogError } = await import("./catalog/load.js");
    try {
      const { pointer, changed, removed } = await publishBundle({ catalog: opts.catalog, out: opts.out, ...(opts.keep ? { keep: opts.keep } : {}), ...(opts.signKey ? { signKey: opts.signKey } : {}) });
      console.error(`${changed ? "published" : "already published"} ${pointer.bundle} (catalog ${pointer.hash.slice(0, 12)}) in ${opts.out}${removed.length ? `; removed ${removed.join(", ")}` : ""}`);
    } catch (error) {
      if (!(error instanceof CatalogError) && !(error as NodeJS.ErrnoException).code) throw error;
      console.error((error as Error).message);
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
  .command("dev")
  .description("build, serve, and rebuild on every content change (errors keep the last good catalog)")
  .option("--content <dir>", "content folder", process.env.FRONTDESK_CONTENT ?? "content")
  .action(async (opts: { content: string }) => {
    const { dev } = await import("./dev.js");
    await dev(readConfig(process.env), opts.content);
  });

program
  .command("diff [before] [after]")
  .description("what changed between two catalog folders, or between the content at a git ref and now (--ref)")
  .option("--ref <ref>", "compare the content at this git ref with the working tree")
  .option("--content <dir>", "content folder (with --ref)", process.env.FRONTDESK_CONTENT ?? "content")
  .addOption(new Option("--format <format>", "output").choices(["markdown", "json"]).default("markdown"))
  .action(async (before: string | undefined, after: string | undefined, opts: { ref?: string; content: string; format: string }) => {
    const { diffAgainstRef, diffCatalogFolders, diffMarkdown, DiffError } = await import("../build/diff.js");
    if (!opts.ref && !(before && after)) {
      console.error("give two catalog folders, or --ref <git ref>");
      process.exitCode = 1;
      return;
    }
    let diff;
    try {
      diff = opts.ref ? await diffAgainstRef(opts.ref, opts.content) : await diffCatalogFolders(before!, after!);
    } catch (error) {
      if (!(error instanceof DiffError)) throw error;
      console.error(error.message);
      process.exitCode = 1;
      return;
    }
    console.log(opts.format === "json" ? JSON.stringify(diff, null, 2) : diffMarkdown(diff));
  });

program
  .command("new <kind> <slug>")
  .description("write a new content file with every field and a comment on each (service, technique, faq, tool)")
  .option("--content <dir>", "content folder", process.env.FRONTDESK_CONTENT ?? "content")
  .action(async (kind: string, slug: string, opts: { content: string }) => {
    const { newContentFile } = await import("../build/templates.js");
    try {
      const file = await newContentFile(opts.content, kind, slug);
      console.error(`wrote ${file}: fill in the empty fields, then run "npm run validate"`);
    } catch (error) {
      console.error((error as Error).message);
      process.exitCode = 1;
    }
  });

const evaluation = program.command("eval").description("measure the reviewers and the recommendations against the labelled sets in test/fixtures");

/** The options every evaluation takes: which split, whose content, which labelled sets. */
function evaluationCommand(name: string, description: string, fixtures: string, evaluate: (opts: EvaluationOptions) => Promise<string>): void {
  evaluation
    .command(name)
    .description(description)
    .addOption(new Option("--split <split>", "which part of the sets: dev (tuned on), test (never tuned on) or all").choices(["dev", "test", "all"]).default("test"))
    .option("--content <dir>", "content folder whose rubrics and catalog are used", process.env.FRONTDESK_CONTENT ?? "content")
    .option("--fixtures <dir>", `folder of the labelled sets (${fixtures})`, "test/fixtures")
    // A test part is read for its figures; its items are not to be tuned on, so they need not be seen.
    .option("--no-items", "print the figures alone, without the items missed (ids, texts, what decided them)")
    .action(async (opts: EvaluationOptions) => {
      try {
        console.log(await evaluate(opts));
      } catch (error) {
        console.error((error as Error).message);
        process.exitCode = 1;
      }
    });
}
type EvaluationOptions = { split: "dev" | "test" | "all"; content: string; fixtures: string; items: boolean };

evaluationCommand("reviews", "agreement of the ticket and quote reviews with the labelled sets: per set, per type and format, and every disagreement", "tickets*.yaml, quotes*.yaml", async (opts) => {
  const { evaluateReviews, reviewReport } = await import("./eval/reviews.js");
  return reviewReport(await evaluateReviews(opts), opts.split, opts.items);
});

evaluationCommand("recommend", "hit@3 and MRR of GET /recommend on the labelled problems, per part (dev, test) and style, and every problem missed", "recommend*.yaml", async (opts) => {
  const { evaluateRecommend } = await import("./eval/recommend.js");
  return evaluateRecommend(opts);
});

program
  .command("train")
  .description("retrain a learned part of the reviewers from the dev parts of the labelled sets")
  .argument("<what>", "what to train: reader (the ticket reader)")
  .option("--fixtures <dir>", "folder of the labelled sets (tickets*.yaml)", "test/fixtures")
  .option("--out <file>", "where to write the model", "src/reviews/ticket-reader.json")
  .action(async (what: string, opts: { fixtures: string; out: string }) => {
    try {
      if (what !== "reader") throw new Error(`nothing to train called "${what}": the one learned part is "reader"`);
      const { trainTicketReader, writeReader } = await import("./eval/train-reader.js");
      const model = await trainTicketReader(opts.fixtures);
      await writeReader(model, opts.out);
      console.log(`Trained the ticket reader on ${model.trainedOn.items} tickets (${model.trainedOn.passes} passes): ${Object.keys(model.weights).length} features in ${opts.out}.`);
    } catch (error) {
      console.error((error as Error).message);
      process.exitCode = 1;
    }
  });

const data = program.command("data").description("operator tasks on the stored submissions (run on the host)");

data
  .command("export")
  .description("stream stored submissions to stdout")
  .addOption(new Option("--kind <kind>", "what to export").choices(["leads", "waitlist", "quotes", "tickets", "questions"]).makeOptionMandatory())
  .addOption(new Option("--format <format>", "output format").choices(["csv", "jsonl"]).default("csv"))
  .option("--since <date>", "only records created on or after this date (YYYY-MM-DD)")
  .action(async (opts: { kind: "leads"; format: "csv"; since?: string }) => {
    if (opts.since !== undefined && Number.isNaN(Date.parse(opts.since))) {
      console.error(`--since must be a date like 2026-01-31 (got "${opts.since}")`);
      process.exitCode = 1;
      return;
    }
    await reportingStoreErrors(async () => {
      const { openOperatorStore } = await import("./store/open.js");
      const { exportRecords } = await import("./data-commands.js");
      const store = await openOperatorStore(readConfig(process.env));
      try {
        const count = await exportRecords(store, opts.kind, opts.format, process.stdout, opts.since);
        console.error(`exported ${plural(count, "record")}`);
      } finally {
        await store.close();
      }
    });
  });

data
  .command("erase")
  .description("remove or anonymise every stored record of one person")
  .requiredOption("--email <address>", "the person's e-mail address")
  .action(async (opts: { email: string }) => {
    await reportingStoreErrors(async () => {
      const { openOperatorStore } = await import("./store/open.js");
      const store = await openOperatorStore(readConfig(process.env));
      try {
        const changes = await store.erase(opts.email);
        for (const c of changes) console.log(`${c.action} ${c.collection} ${c.reference}`);
        console.error(changes.length ? `erased ${opts.email}: ${plural(changes.length, "record")} changed` : `nothing stored for ${opts.email}`);
      } finally {
        await store.close();
      }
    });
  });

program
  .command("serve")
  .description("serve the API from the compiled catalog (PORT, HOST, FRONTDESK_CATALOG, PUBLIC_BASE_URL)")
  .action(async () => {
    const { serve } = await import("./serve.js");
    await reportingStoreErrors(() => serve(readConfig(process.env)));
  });

program
  .command("migrate")
  .description("apply the PostgreSQL schema migrations (DATABASE_URL) and exit; serve also applies them on start. --from-file also moves the embedded store's data into it")
  .option("--from-file [data file]", "copy every record, allowance and remembered answer of this embedded store (default FRONTDESK_DATA) into PostgreSQL; stop the embedded server first")
  .action(async (opts: { fromFile?: string | true }) => {
    const config = readConfig(process.env);
    if (!config.databaseUrl) {
      console.error("DATABASE_URL is not set: migrations are for the PostgreSQL store; the embedded store needs none");
      process.exitCode = 1;
      return;
    }
    const databaseUrl = config.databaseUrl;
    const { migrate } = await import("./store/postgres-store.js");
    await reportingStoreErrors(async () => {
      const applied = await migrate(databaseUrl);
      console.error(applied.length === 0 ? "the database schema is up to date" : `applied migrations ${applied.join(", ")}`);
      if (opts.fromFile === undefined) return;
      const { moveToPostgres } = await import("./store/move.js");
      const file = opts.fromFile === true ? config.dataFile : opts.fromFile;
      const moved = await moveToPostgres(file, databaseUrl, config.lockStaleMs);
      console.error(`moved ${file} into PostgreSQL: ${plural(moved.records, "record")} (${moved.added} new), ${plural(moved.allowances, "allowance")}, ${plural(moved.answers, "remembered answer")}`);
    });
  });

await program.parseAsync();
