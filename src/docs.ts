import { createHash } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import { ApiError } from "./api/envelope.js";
import { API_PREFIX } from "./api/operations.js";

/**
 * `/docs`: the API reference for people, rendered in the browser by Scalar. The page and its
 * script bundle are served from the npm package (under `/docs/js/`), never from a CDN.
 *
 * The page loads the document from `/api/v1/openapi.json` rather than embedding a copy, so it
 * always shows what the API serves, hot-swapped catalogs included, and the plugin adds no second
 * OpenAPI endpoint of its own.
 */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  // The site root is where people and agents land first: a browser goes on to the reference,
  // anything else to the machine-readable API index.
  app.get("/", async (request, reply) => {
    const browser = request.headers.accept?.includes("text/html") ?? false;
    return reply.header("vary", "accept").redirect(browser ? "/docs" : API_PREFIX, 302);
  });

  // Scalar's module holds its 4 MB bundle and takes a fifth of a second to load, so it lives in a
  // small inner app built on the first visit; the API's own start does not wait for it.
  let inner: Promise<FastifyInstance> | undefined;
  const docsApp = () => (inner ??= buildDocsApp());
  app.route({
    method: ["GET", "HEAD"],
    url: "/docs*",
    handler: async (request, reply) => {
      const answer = await (await docsApp()).inject({ method: request.method as "GET", url: request.url, headers: request.headers });
      // The reference's own app knows only its page and assets; anything else is the API's 404.
      if (answer.statusCode === 404) throw new ApiError(404, "not_found", `There is no page ${request.url.split("?")[0]}: the API reference is at /docs.`);
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && name !== "content-length" && name !== "transfer-encoding") reply.header(name, value);
      if (String(answer.headers["content-type"]).startsWith("text/html")) reply.header("content-security-policy", contentSecurityPolicy(answer.payload));
      return reply.code(answer.statusCode).send(answer.rawPayload);
    },
  });
}

/**
 * The page may run its own script bundle and its one inline script (allowed by its hash), fetch
 * from this server only, and be framed by nobody. Styles stay open to inline ones: the reference
 * sets them on its elements as it renders. Its bundle compiles code at run time (eval), so that
 * stays allowed; no other script can be added to the page to use it, and the page carries no
 * credentials (the API has none).
 */
function contentSecurityPolicy(html: string): string {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash("sha256").update(code!).digest("base64")}'`,
  );
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-eval' ${inline.join(" ")}`.trim(),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

async function buildDocsApp(): Promise<FastifyInstance> {
  const { default: scalarApiReference } = await import("@scalar/fastify-api-reference");
  const docs = Fastify({ logger: false });
  await docs.register(scalarApiReference, {
    routePrefix: "/docs",
    // The page and its 4 MB bundle change only with a deploy; the document comes from the API's own route.
    hooks: { onRequest: async (_request, reply) => void reply.header("cache-control", "public, max-age=3600") },
    configuration: {
      url: `${API_PREFIX}/openapi.json`,
      pageTitle: "API reference",
      // The API is small: every operation listed at once reads better than collapsed groups.
      defaultOpenAllTags: true,
      // Each of these would otherwise reach Scalar's services from the reader's browser: the
      // default fonts come from its font host; the agent chat, the MCP generator and the
      // developer tools are its hosted products.
      withDefaultFonts: false,
      agent: { disabled: true },
      mcp: { disabled: true },
      showDeveloperTools: "never",
      telemetry: false,
    },
  });
  await docs.ready();
  return docs;
}
