import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../src/api/operations.js";
import { createApp } from "../src/app.js";
import { LiveCatalog } from "../src/catalog/live.js";
import type { FastifyInstance } from "fastify";
import { builtCatalog, testApp, type TestApp } from "./helpers/app.js";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/**
 * What an agent is told, followed as an agent follows it: every link of the llms files is
 * fetched from a server that serves at the address it names, the full file's headings nest under
 * its items, and every operation an agent is told to call exists by that name in the OpenAPI
 * document and among the MCP tools.
 */
let t: TestApp;
let app: FastifyInstance;
let catalog: LiveCatalog;
let base: string;

beforeAll(async () => {
  t = await testApp({ content: SAMPLE_CONTENT }); // for its store
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  base = `http://127.0.0.1:${port}`;
  catalog = await LiveCatalog.open(await builtCatalog(SAMPLE_CONTENT), base);
  app = await createApp({ catalog, store: t.store, config: { publicBaseUrl: base } });
  await app.listen({ port, host: "127.0.0.1" });
});
afterAll(async () => {
  catalog.close();
  await app.close();
  await t.close();
});

const text = async (path: string) => (await fetch(`${base}${path}`)).text();
/** Every address of this server in a text, as a Markdown link or bare (the full file writes "(address)"). */
const links = (markdown: string) => [...markdown.matchAll(/https?:\/\/[^)\s]+/g)].map((m) => m[0].replace(/[.,;]$/, "")).filter((url) => url.startsWith(base));

describe("llms.txt and llms-full.txt", () => {
  it("link only to addresses a GET can read", async () => {
    for (const file of ["/llms.txt", "/llms-full.txt"]) {
      const found = links(await text(file));
      expect(found.length, file).toBeGreaterThan(file === "/llms.txt" ? 25 : 10);
      const failing: string[] = [];
      for (const url of new Set(found)) {
        const status = (await fetch(url)).status;
        if (status !== 200) failing.push(`${status} ${url}`);
      }
      expect(failing, file).toEqual([]);
    }
  });

  it("say the scheme they are served with, and name operations by operationId", async () => {
    const index = await text("/llms.txt");
    expect(index).toContain("JSON over HTTP,");
    expect(index).not.toContain("HTTPS");
    for (const op of operations.filter((o) => o.action)) expect(index).toContain(`[${op.operationId} (${op.method} ${op.path})]`);
  });

  it("nest each item's own headings below the item's heading in llms-full.txt", async () => {
    const full = await text("/llms-full.txt");
    const { data } = catalog.current;
    const headings = (level: number) => [...full.matchAll(new RegExp(`^${"#".repeat(level)} (.+)$`, "gm"))].map((m) => m[1]);
    expect(headings(2)).toEqual(["Services", "Products", "Techniques and stack", "Tools Lab", "FAQ"]);
    expect(headings(3)).toEqual([...data.services.map((s) => s.title), ...data.products.map((p) => p.title), ...data.faq.map((f) => f.question)]);
    // The sample descriptions have sections of their own ("## How an engagement runs"): now one level down.
    expect(headings(4).length).toBeGreaterThan(0);
  });
});

describe("operations an agent is told to call", () => {
  it("exist by that name as an operationId and as an MCP tool", async () => {
    const document = JSON.parse(await text("/api/v1/openapi.json")) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operationIds = new Set(Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId)));
    const listed = await fetch(`${base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    const tools = new Set(((await listed.json()) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name));
    const advisor = (JSON.parse(await text("/api/v1/gpt/advisor")) as { data: { systemPrompt: string; setupSteps: string[]; actions: { operationId: string }[] } }).data;

    // Every name that looks like an operation (any operationId or action name), wherever an agent reads it.
    const candidates = new Set([...operations.map((o) => o.operationId), ...operations.flatMap((o) => (o.action ? [o.action.name] : []))]);
    const told = new Set<string>();
    for (const said of [advisor.systemPrompt, ...advisor.setupSteps, await text("/llms.txt")]) {
      for (const word of said.match(/\b[a-z][A-Za-z]+\b/g) ?? []) if (candidates.has(word)) told.add(word);
    }
    for (const action of advisor.actions) told.add(action.operationId);
    expect(told.size).toBeGreaterThanOrEqual(7);
    const agentTools = operations.filter((o) => o.operationId !== "getApiIndex" && o.operationId !== "getOpenApi").map((o) => o.operationId);
    for (const name of told) {
      expect(operationIds.has(name), `${name} is not an operationId`).toBe(true);
      if (agentTools.includes(name)) expect(tools.has(name), `${name} is not an MCP tool`).toBe(true);
    }
  });
});
