// Run with --allow-natives-syntax --expose-gc (test/tick-shape.test.ts). Queues ticks until
// nextTick is hot, lets a full collection run while no tick object is alive, queues more, and
// prints V8's feedback for nextTick. Given "keep", keepTickObjectShape runs first.
import { keepTickObjectShape } from "../../src/tick-shape.js";

if (process.argv[2] === "keep") keepTickObjectShape();
const noop = () => {};
const ticks = async () => {
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 1000; i++) process.nextTick(noop);
    await new Promise((resolve) => setImmediate(resolve));
  }
};
await ticks();
const gc = (globalThis as { gc?: () => void }).gc!;
gc();
gc();
await ticks();
// V8's own syntax, which TypeScript cannot parse: written as a function body.
new Function("f", "%DebugPrint(f)")(process.nextTick);
