// A rebuild of the sample content after one FAQ edit, in process, for a checkout: five rebuilds,
// after a first build. Usage: npx tsx bench/compare-rebuild.ts <checkout> (run it for each checkout in turn).
const [root] = process.argv.slice(2);
const { buildCatalog } = await import(`${root}/build/pipeline.ts`);
const { cp, writeFile, readFile, rm, mkdtemp } = await import("node:fs/promises");
const { tmpdir } = await import("node:os");
const dir = await mkdtemp(`${tmpdir()}/frontdesk-rebuild-`);
await cp(`${root}/content`, `${dir}/content`, { recursive: true });
await buildCatalog({ content: `${dir}/content`, catalog: `${dir}/cat` });
const times: number[] = [];
for (let i = 0; i < 5; i++) {
  const faq = `${dir}/content/faq/how-fast-can-you-start.md`;
  await writeFile(faq, `${await readFile(faq, "utf8")}\nEdit ${i}.\n`);
  const t = performance.now(); await buildCatalog({ content: `${dir}/content`, catalog: `${dir}/cat` }); times.push(performance.now() - t);
}
console.log(root, times.map((x) => x.toFixed(0)).join(" "));
await rm(dir, { recursive: true, force: true });
