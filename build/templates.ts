import { access, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { SLUG } from "./source.js";

/**
 * `frontdesk new <kind> <slug>`: a new content file with every field and a comment on each. The
 * fields only an editor can fill are left empty, so the validator names exactly those.
 */
const TEMPLATES = {
  service: {
    folder: "services",
    text: `---
# Shown as the service's name (at most 80 characters).
title: ""
# One or two sentences for listings and GPTs (at most 280 characters).
summary: ""
# One of: engineering, ai, platform, security, design, data, advisory, support
category: engineering
# Short lowercase keywords that help search.
tags: []
# The problems this solves, in a client's own words ("our app crashes after every release").
problems:
  - ""
# What the client receives.
deliverables:
  - ""
pricing:
  # One of: fixed, time-and-materials, retainer, subscription
  model: fixed
  # Starting price, a number without currency sign.
  from: 0
  currency: EUR
  # One of: project, month, day, sprint
  unit: project
# Typical duration, e.g. "4-8 weeks".
duration: ""
# Related technique ids (file names in content/techniques/).
techniques: []
# Related products: alpha, beta, alpha-secure.
products: []
---
<!-- TODO: describe the service in Markdown: how an engagement runs, and one concrete example. -->
`,
  },
  technique: {
    folder: "techniques",
    text: `---
# Shown as the technique's name (at most 80 characters).
title: ""
# How we use it, in one or two sentences (at most 280 characters).
summary: ""
# One of: language, framework, practice, infrastructure, ai-method
category: practice
tags: []
---
<!-- TODO: where and how the team applies it, and when it would not. -->
`,
  },
  faq: {
    folder: "faq",
    text: `---
# The question as a prospect asks it, ending with "?".
question: ""
# One of: pricing, process, legal, security, ai, reviews, products, team, support, general
category: general
tags: []
# Date of the last change, YYYY-MM-DD, in quotes.
updated: "2026-01-01"
---
<!-- TODO: the answer, concrete, with numbers where they help. -->
`,
  },
  tool: {
    folder: "tools",
    text: `---
# Shown as the tool's name.
title: ""
# What it does, in one or two sentences (at most 280 characters).
summary: ""
# available (then set url) or upcoming (then set expected, e.g. "Q2 2027")
status: upcoming
expected: ""
---
<!-- TODO: describe the tool. -->
`,
  },
} as const;

export type NewKind = keyof typeof TEMPLATES;
export const NEW_KINDS = Object.keys(TEMPLATES) as NewKind[];

export async function newContentFile(contentDir: string, kind: string, slug: string): Promise<string> {
  const template = TEMPLATES[kind as NewKind];
  if (!template) throw new Error(`unknown kind "${kind}": use one of ${NEW_KINDS.join(", ")} (products are fixed: alpha, beta, alpha-secure)`);
  if (!SLUG.test(slug)) throw new Error(`"${slug}" is not a valid id: use lowercase words joined by hyphens, like "ai-agents"`);
  const file = join(contentDir, template.folder, `${slug}.md`);
  if (await access(file).then(() => true, () => false)) throw new Error(`${file} already exists: choose another id`);
  await mkdir(join(contentDir, template.folder), { recursive: true });
  await writeFile(file, template.text, { flag: "wx" });
  return file;
}
