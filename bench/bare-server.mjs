// The baseline: a bare fastify server answering each route with a constant body. Its set-up
// arrives as JSON on stdin, { routes: { "/path": "body", ... }, headers? }; the port in PORT.
// Given `headers` (the API's own), it also does per answer what the requirements ask of every
// catalog answer and nothing else: those security and CORS headers and a request id (issue #8),
// an ETag and Cache-Control, and a fresh timestamp in the envelope (issue #3).
import { randomUUID } from "node:crypto";
import Fastify from "fastify";

const { routes, headers } = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (c) => (text += c)).on("end", () => resolve(text));
}));
const app = Fastify({ logger: false, ...(headers ? { genReqId: () => randomUUID() } : {}) });
if (headers) {
  app.addHook("onRequest", (request, reply, done) => {
    reply.headers(headers).header("x-request-id", request.id);
    done();
  });
}
const TIMESTAMP = /"timestamp":"[^"]*"/;
for (const [path, body] of Object.entries(routes)) {
  app.get(path, (_request, reply) => {
    reply.type("application/json; charset=utf-8");
    if (!headers) return reply.send(body);
    reply.header("etag", '"0123456789abcdef0123456789abcdef"').header("cache-control", "public, max-age=60");
    return reply.send(body.replace(TIMESTAMP, `"timestamp":"${new Date().toISOString()}"`));
  });
}
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
