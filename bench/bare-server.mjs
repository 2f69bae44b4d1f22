// The baseline: a bare fastify server answering each route with a constant body.
// Routes and bodies arrive as JSON on stdin: { "/path": "body", ... }; the port in PORT.
import Fastify from "fastify";

const routes = JSON.parse(await new Promise((resolve) => {
  let text = "";
  process.stdin.on("data", (c) => (text += c)).on("end", () => resolve(text));
}));
const app = Fastify({ logger: false });
for (const [path, body] of Object.entries(routes)) {
  app.get(path, (_request, reply) => reply.type("application/json; charset=utf-8").send(body));
}
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
