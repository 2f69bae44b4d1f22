// Run with --expose-gc, and --allow-natives-syntax for "feedback". Queues ticks until nextTick is
// hot, lets a full collection run while no tick object is alive, queues more, then prints either
// V8's feedback for nextTick ("feedback": test/tick-shape.test.ts) or the median cost of a tick in
// nanoseconds ("time": npm run bench). Given "keep", keepTickObjectShape runs first.
import { keepTickObjectShape } from "../../src/tick-shape.js";

const [mode, keep] = process.argv.slice(2);
if (keep === "keep") keepTickObjectShape();
const noop = () => {};
/** Rounds of a thousand ticks, each round run out before the next. */
const ticks = async (rounds: number) => {
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < 1000; i++) process.nextTick(noop);
    await new Promise((resolve) => setImmediate(resolve));
  }
};
await ticks(3);
const gc = (globalThis as { gc?: () => void }).gc!;
gc();
gc();
await ticks(50);
if (mode === "time") {
  const costs: number[] = [];
  for (let run = 0; run < 7; run++) {
    const started = performance.now();
    await ticks(500);
    costs.push(((performance.now() - started) * 1e6) / 500_000);
  }
  console.log(costs.sort((a, b) => a - b)[3]!.toFixed(0));
} else {
  // V8's own syntax, which TypeScript cannot parse: written as a function body.
  new Function("f", "%DebugPrint(f)")(process.nextTick);
}
