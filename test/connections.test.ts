import { once } from "node:events";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../src/app.js";
import { testApp, type TestApp } from "./helpers/app.js";

/**
 * A client may hold a connection only so long and only so many may: a body announced and sent a
 * byte a second ends in 408 and a closed connection, and connections past the cap are refused.
 */
let t: TestApp;
let app: Awaited<ReturnType<typeof createApp>>;
let port: number;

beforeAll(async () => {
  t = await testApp();
  app = await createApp({
    catalog: t.catalog,
    store: t.store,
    config: { publicBaseUrl: "http://x", connections: { requestTimeoutMs: 600, headersTimeoutMs: 600, keepAliveTimeoutMs: 5000, maxConnections: 3 } },
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app.close();
  await t.close();
});

/** Everything the server sends until it closes the connection. */
function received(socket: Socket): Promise<string> {
  let text = "";
  socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
  socket.on("error", () => undefined);
  return once(socket, "close").then(() => text);
}

describe("connection limits", () => {
  it("answers a body that trickles in past the request timeout with 408 in the envelope, and closes", async () => {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    const answer = received(socket);
    socket.write("POST /api/v1/leads/intent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{");
    const drip = setInterval(() => socket.writable && socket.write(" "), 100);
    try {
      const text = await answer;
      expect(text).toMatch(/^HTTP\/1\.1 408 /);
      expect(JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4))).toMatchObject({ success: false, error: { code: "timeout" } });
    } finally {
      clearInterval(drip);
    }
  }, 15_000);

  it("refuses connections past the cap, and serves again once one closes", async () => {
    const open = await Promise.all(
      Array.from({ length: 3 }, async () => {
        const socket = connect(port, "127.0.0.1");
        await once(socket, "connect");
        return socket;
      }),
    );
    // Each holds the connection with a request whose headers are still coming.
    for (const socket of open) socket.write("GET /healthz HTTP/1.1\r\n");
    await new Promise((r) => setTimeout(r, 50));
    const extra = connect(port, "127.0.0.1");
    const refused = received(extra);
    extra.write("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(await refused).toBe("");
    for (const socket of open) socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
  }, 15_000);
});
