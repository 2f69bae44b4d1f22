import { readFileSync } from "node:fs";
import YAML from "yaml";
import { readDocument } from "../src/reviews/document.js";
import { labelIndex } from "../src/reviews/labels.js";
const kind = process.argv[3] ?? "quote";
const rubric = YAML.parse(readFileSync(`content/rubrics/${kind}.yaml`, "utf8"));
const criteria = kind === "quote" ? rubric.criteria : rubric.types[process.argv[4] ?? "bug"].criteria;
const doc = readDocument(readFileSync(process.argv[2]!, "utf8"), labelIndex(criteria).resolve);
for (const s of doc.sections) { console.log(`## [${s.label}] -> ${s.criterion ?? "-"}`); for (const l of s.lines) console.log(`   ${l.kind}${l.ordered ? "#" : ""} b${l.block}: ${l.text.slice(0, 110).replace(/\n/g, "⏎")}`); }
