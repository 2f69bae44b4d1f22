// The baseline: a bare fastify server answering each route with a constant body.
// Routes and bodies arrive as JSON on stdin: { "/path": "body", ... }; the port in PORT.
// With REQUIRED=1 it also does, per answer, what the API's requirements ask of every catalog
// answer and nothing else: the security and CORS headers and a request id (issue #8), an ETag
// and Cache-Control, and a fresh timestamp in the envelope (issue #3), all as Frontdesk sends them.
import { randomUUID } from "node:crypto";
import Fastify from "fastify";

const routes = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (c) => (text += c)).on("end", () => resolve(text));
}));
const required = process.env.REQUIRED === "1";
const app = Fastify({ logger: false, ...(required ? { genReqId: () => randomUUID() } : {}) });
if (required) {
  const headers = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "access-control-allow-origin": "*",
    "access-control-expose-headers": "etag, x-request-id, retry-after, ratelimit, ratelimit-policy",
  };
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(headers).header("x-request-id", request.id);
    done();
  });
}
const TIMESTAMP = /"timestamp":"[^"]*"/;
for (const [path, body] of Object.entries(routes)) {
  const [before, after] = body.split(TIMESTAMP);
  app.get(path, (_request, reply) => {
    reply.type("application/json; charset=utf-8");
    if (!required || after === undefined) return reply.send(body);
    reply.header("etag", '"0123456789abcdef0123456789abcdef"').header("cache-control", "public, max-age=60");
    return reply.send(`${before}"timestamp":"${new Date().toISOString()}"${after}`);
  });
}
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
