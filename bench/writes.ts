import type { ChildProcess } from "node:child_process";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { LowdbStore } from "../src/store/lowdb-store.js";

/**
 * Acknowledged lead submissions, each carrying 2 KB of text, into stores that already hold 1,000,
 * 10,000 and 100,000 such leads, on the embedded store and on PostgreSQL; the embedded server's
 * memory against the records' JSON, and its start-up time at each size.
 */
export interface WriteBenchTools {
  work: string;
  catalog: string;
  seconds: number;
  log(line?: string): void;
  start(command: string[], options: { env: Record<string, string>; probePath: string }): Promise<{ child: ChildProcess; port: number; startedAt: number }>;
  stop(child: ChildProcess): Promise<unknown>;
  load(url: string, options: { connections: number; method: "POST"; body: string }): Promise<{ rps: number; p99: number }>;
  firstOk(url: string): Promise<void>;
  /** A PostgreSQL schema holding `stored` leads with `text`, or undefined where none answers. */
  postgres: { url: string; reset(stored: number, text: string): Promise<void> } | undefined;
}

export const SIZES = [1_000, 10_000, 100_000];
/** 2 KB of plain text, as a long lead description or reviewed ticket is. */
export const TEXT = "Wants an app for 40 field engineers to see jobs, log hours and upload photos. ".repeat(27).slice(0, 2048);

const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Resident and peak memory of a process, from /proc (Linux). */
async function memory(pid: number): Promise<{ rss: number; peak: number }> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
  return { rss: kib("VmRSS"), peak: kib("VmHWM") };
}

async function seedEmbedded(file: string, stored: number): Promise<void> {
  const store = await LowdbStore.open(file, { compaction: { minBytes: Infinity, ratio: 0 }, control: false });
  for (let batch = 0; batch < stored / 1000; batch++) {
    await store.transaction(async (tx) => {
      for (let i = 0; i < 1000; i++) await tx.put("leads", { reference: `lead-seed-${batch}-${i}`, createdAt: "2026-01-01T00:00:00.000Z", description: TEXT });
    });
  }
  await store.compact(); // as a store of that size is found: a snapshot, an empty journal
  await store.close();
}

/** The size of every stored record's JSON, read as the next start reads the files, and how long that load took. */
async function recordsJson(file: string): Promise<{ records: number; json: number; load: number }> {
  const started = performance.now();
  const store = await LowdbStore.open(file, { control: false });
  const load = performance.now() - started;
  let records = 0;
  let bytes = 0;
  for await (const record of store.records("leads")) {
    records++;
    bytes += Buffer.byteLength(JSON.stringify(record));
  }
  await store.close();
  return { records, json: bytes, load };
}

export async function benchWrites(tools: WriteBenchTools): Promise<void> {
  const { log } = tools;
  const body = JSON.stringify({ description: TEXT, intent: "quote", requestedBy: "gpt" });
  const runs: { store: string; stored: number; rps: number; p99: number }[] = [];
  const embedded: { stored: number; json: number; records: number; load: number; rss: number; peak: number; firstRead: number; ready: number }[] = [];
  for (const store of tools.postgres ? ["embedded", "postgresql"] : ["embedded"]) {
    for (const stored of SIZES) {
      const file = join(tools.work, `writes-${stored}`, "frontdesk.json");
      const env: Record<string, string> = { FRONTDESK_CATALOG: tools.catalog, FRONTDESK_DATA: file, RATE_LIMIT_READ_PER_MINUTE: "0", RATE_LIMIT_WRITE_PER_MINUTE: "0" };
      if (store === "embedded") await seedEmbedded(file, stored);
      else await tools.postgres!.reset(stored, TEXT);
      const server = await tools.start(["dist/cli.js", "serve"], { env: { ...env, ...(store === "postgresql" ? { DATABASE_URL: tools.postgres!.url } : {}) }, probePath: "/api/v1/contact" });
      const firstRead = performance.now() - server.startedAt;
      await tools.firstOk(`http://127.0.0.1:${server.port}/readyz`);
      const ready = performance.now() - server.startedAt;
      const result = await tools.load(`http://127.0.0.1:${server.port}/api/v1/leads/intent`, { connections: 64, method: "POST", body });
      const used = await memory(server.child.pid!);
      await tools.stop(server.child);
      runs.push({ store, stored, rps: result.rps, p99: result.p99 });
      if (store === "embedded") embedded.push({ stored, ...(await recordsJson(file)), ...used, firstRead, ready });
    }
  }

  log(`## Acknowledged lead submissions with 2 KB of text (${tools.seconds} s, 64 connections; a 200 means the lead is on disk or committed)`);
  log();
  log(`Each store starts holding that many leads of 2 KB text (the embedded store as a snapshot, PostgreSQL as rows), then takes new ones of the same size. The baseline of each store is its own run at 1,000 records, in the same run.`);
  log();
  log(`| store | stored records | writes/s | p99 | writes/s vs. 1,000 | p99 vs. 1,000 | target |`);
  log(`|---|---|---|---|---|---|---|`);
  for (const run of runs) {
    const base = runs.find((r) => r.store === run.store && r.stored === SIZES[0])!;
    const target = run.store === "embedded" && run.stored === 100_000 ? "≥ 1,000/s; ≥ 0.7× and p99 ≤ 2× of 1,000" : "";
    log(`| ${run.store} | ${run.stored.toLocaleString("en")} | ${Math.round(run.rps)} | ${run.p99} ms | ${(run.rps / base.rps).toFixed(2)}× | ${(run.p99 / base.p99).toFixed(2)}× | ${target} |`);
  }
  if (!tools.postgres) log(`PostgreSQL: no server answered on 127.0.0.1:5432, so only the embedded store was measured.`);
  log();
  log(`## The embedded store's server: memory and start-up by size`);
  log();
  log(`Memory is the server's resident size (and its peak) after the write run above, against the JSON of every record it then held (the seeded ones and those written); below 100,000 records the process's own hundred-odd MB weigh more than the records. Start-up of the server that held that many records is from process start to its first answered read (served while the store loads) and to its first 200 on /readyz (catalog and store loaded, on one core shared by both). Loading is the store alone, in the benchmark's process, after the run: the snapshot read and the journal of the run replayed.`);
  log();
  log(`| stored records at start | server start: first read | server start: ready | records after the run | their JSON | loading them | server memory after the run (peak) | memory / JSON | target |`);
  log(`|---|---|---|---|---|---|---|---|---|`);
  for (const e of embedded) {
    const target = e.stored === 100_000 ? "loading ≤ 1 s; memory < 2.5× JSON" : "";
    log(`| ${e.stored.toLocaleString("en")} | ${Math.round(e.firstRead)} ms | ${Math.round(e.ready)} ms | ${e.records.toLocaleString("en")} | ${MB(e.json)} | ${Math.round(e.load)} ms | ${MB(e.rss)} (${MB(e.peak)}) | ${(e.rss / e.json).toFixed(2)}× (${(e.peak / e.json).toFixed(2)}×) | ${target} |`);
  }
  log();
}
