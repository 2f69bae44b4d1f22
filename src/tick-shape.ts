import { createHook } from "node:async_hooks";

/**
 * Keeps one of Node's tick objects (what `process.nextTick` queues: about ten per request) alive
 * for the life of the server process.
 *
 * Why: Node builds each tick object with an object literal of computed keys. When a full garbage
 * collection finds no tick object alive (the idle moment after start, typically), V8 drops their
 * hidden classes; the next ticks get new ones, that literal's feedback turns megamorphic for
 * good, and every later tick object is defined through V8's runtime. `npm run bench` measures a
 * tick after a full collection at several times its cost with a tick object kept; in fresh
 * servers after an idle spell, most processes met that and small catalog answers lost a tenth of
 * their throughput (measured by hand). A live tick object keeps the hidden classes, so the
 * literal stays monomorphic (test/tick-shape.test.ts shows both). Node 20 and 22 have this; the V8
 * of Node 24 keeps the literal monomorphic by itself, and there the kept object changes nothing.
 *
 * Only Node makes tick objects, so one is caught with an async hook that is enabled for a single
 * nextTick. Call it once, early, before the first full collection. A Node that makes none has
 * changed its internals: nothing is kept, the server runs as it would without this, and
 * test/tick-shape.test.ts fails to say so.
 */
let kept: object | undefined;

export function keepTickObjectShape(): void {
  if (kept) return;
  const hook = createHook({
    init(_asyncId, type, _triggerAsyncId, resource) {
      if (type === "TickObject") kept ??= resource;
    },
  }).enable();
  try {
    process.nextTick(() => {});
  } finally {
    hook.disable();
  }
}
