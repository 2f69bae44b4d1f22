// What the ticket reader adds to a ticket review: every labelled ticket reviewed with the sample
// rubric as it is and with the reader off (readerReach 0), the two alternated in one run, five
// rounds; the median time per ticket of each. `npm run bench` includes it; alone:
//   node --import tsx bench/reader-cost.ts
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import YAML from "yaml";
import type { TicketRubric, TicketType } from "../src/catalog/types.js";
import { loadLabelled } from "../src/eval/labelled.js";
import { reviewTicket } from "../src/reviews/ticket.js";

export async function readerCost(root: string): Promise<string[]> {
  const rubric: TicketRubric = YAML.parse(await readFile(join(root, "content/rubrics/ticket.yaml"), "utf8"));
  const off: TicketRubric = { ...rubric, readerReach: 0 };
  const tickets = (await loadLabelled(join(root, "test/fixtures"), "tickets")).map((t) => ({ ticketText: t.text, ...(t.type ? { type: t.type as TicketType } : {}) }));
  const round = (r: TicketRubric) => {
    const started = performance.now();
    for (const ticket of tickets) reviewTicket(ticket, r);
    return (performance.now() - started) / tickets.length;
  };
  round(rubric); // warm-up: the patterns compiled and the model read once
  const times = { off: [] as number[], on: [] as number[] };
  for (let i = 0; i < 5; i++) {
    times.off.push(round(off));
    times.on.push(round(rubric));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2]!;
  return [
    `## The ticket reader's cost (${tickets.length} labelled tickets, median of 5 alternated rounds)`,
    "",
    "| ticket review | per ticket | vs. baseline |",
    "|---|---|---|",
    `| baseline: the rules alone (readerReach 0) | ${median(times.off).toFixed(2)} ms | 1.00× |`,
    `| with the reader (readerReach ${rubric.readerReach ?? 0}) | ${median(times.on).toFixed(2)} ms | ${(median(times.on) / median(times.off)).toFixed(2)}× |`,
    "",
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await readerCost(new URL("..", import.meta.url).pathname.replace(/\/$/, ""))) console.log(line);
}
