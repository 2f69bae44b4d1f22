import { readFileSync } from "node:fs";
import { prepare } from "../src/reviews/formats.js";
console.log(prepare(readFileSync(process.argv[2]!, "utf8")));
