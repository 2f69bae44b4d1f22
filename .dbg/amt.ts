import { AMOUNT_PATTERN } from "../src/reviews/facts.js";
for (const t of ["EUR 3,200", "Discovery workshop | EUR 3,200", "€   600,00", "$11,500, 6 weeks", "12 500 EUR", "**EUR 29,100**"]) console.log(t, "=>", [...t.matchAll(AMOUNT_PATTERN)].map((m) => m[0]));
