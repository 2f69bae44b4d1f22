import { cp, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * A large, deterministic content tree for benchmarks: the minimal test content with the sample's
 * concepts, plus `services` generated services and `faq` generated FAQ entries. Their words are drawn from the sample
 * content's own vocabulary with a Zipf-like skew (frequent words often, rare words rarely), so
 * the search indexes look like a real catalog's, only bigger.
 */
async function vocabulary(sampleContent: string): Promise<string[]> {
  const counts = new Map<string, number>();
  for (const folder of ["services", "faq", "products", "techniques"]) {
    const names = await readdir(join(sampleContent, folder)).catch(() => [] as string[]);
    for (const name of names) {
      for (const word of (await readFile(join(sampleContent, folder, name), "utf8")).toLowerCase().match(/[a-z]{3,}/g) ?? []) {
        counts.set(word, (counts.get(word) ?? 0) + 1);
      }
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

export async function generateContent(dir: string, from: string, counts: { services: number; faq: number }, sampleContent: string): Promise<void> {
  const WORDS = await vocabulary(sampleContent);
  const next = random(42);
  // Squaring a uniform draw favours the front of the frequency-sorted list.
  const pick = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(next() ** 2 * WORDS.length)]!).join(" ");
  const tags = (n: number) => [...new Set(pick(n).split(" "))].join(", ");
  await cp(from, dir, { recursive: true });
  // The sample's concepts, so a search pays for reading everyday words as a real catalog does.
  await cp(join(sampleContent, "concepts.yaml"), join(dir, "concepts.yaml"));
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
