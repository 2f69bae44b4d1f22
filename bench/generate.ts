import { cp, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A large, deterministic content tree for benchmarks: the minimal test content plus `services`
 * generated services and `faq` generated FAQ entries, written from a small vocabulary so the
 * search indexes have realistic overlap.
 */
const WORDS = (
  "platform cloud migration kubernetes latency outage security audit compliance invoice mobile app android ios " +
  "pipeline warehouse dashboard analytics legacy monolith refactor api integration partner webhook design system " +
  "onboarding checkout payments fraud search recommendations model agent workflow automation support incident " +
  "backup recovery database postgres scaling costs release testing quality accessibility performance crash"
).split(" ");

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

export async function generateContent(dir: string, from: string, counts: { services: number; faq: number }): Promise<void> {
  const next = random(42);
  const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(" ");
  const tags = (n: number) => [...new Set(pick(n).split(" "))].join(", ");
  await cp(from, dir, { recursive: true });
  await mkdir(join(dir, "services"), { recursive: true });
  await mkdir(join(dir, "faq"), { recursive: true });
  for (let i = 0; i < counts.services; i++) {
    await writeFile(
      join(dir, "services", `service-${i}.md`),
      `---
title: Service ${i} ${pick(2)}
summary: "We help with ${pick(12)}."
category: engineering
tags: [${tags(3)}]
problems:
  - "our ${pick(6)}"
  - "we need ${pick(6)}"
  - "${pick(8)} (${i})"
deliverables:
  - ${pick(5)}
pricing:
  model: fixed
  from: ${1000 + i}
  currency: EUR
  unit: project
duration: 2-4 weeks
techniques: [typescript]
---
${pick(60)}.
`,
    );
  }
  for (let i = 0; i < counts.faq; i++) {
    await writeFile(
      join(dir, "faq", `question-${i}.md`),
      `---
question: "How do you handle ${pick(5)} ${i}?"
category: general
tags: [${tags(2)}]
updated: "2026-01-01"
---
${pick(40)}.
`,
    );
  }
}
