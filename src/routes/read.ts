import { ApiError, Serialized, validationError } from "../api/envelope.js";
import { API_PREFIX, LIMITS } from "../api/operations.js";
import type { Answer, Handler, RequestContext } from "../app.js";
import { WEAK_SCORE, type QuestionKind } from "../questions.js";

/** Handlers of the GET operations: catalog answers prepared at load, and the two searches. */
const fixed = (operationId: string): Handler => ({ catalog }) => ({ json: catalog.fixed.get(operationId)! });

const getService: Handler = ({ catalog, params }) => {
  const id = params.id!.toLowerCase();
  const json = catalog.serviceDetail(id);
  if (json === undefined) {
    throw new ApiError(404, "not_found", `No service has the id "${params.id}": GET ${API_PREFIX}/services lists every service with its id.`, [
      { path: "path.id", message: `unknown service id; known ids: ${[...catalog.services.keys()].join(", ")}` },
    ]);
  }
  return { json };
};

function queryText(ctx: RequestContext, names: string[]): string | undefined {
  for (const name of names) {
    const value = ctx.query[name];
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

const recommend: Handler = (ctx) => {
  const query = queryText(ctx, ["q", "problem"]);
  if (query === undefined) {
    throw validationError("Send the problem in plain words as q (or problem), e.g. /api/v1/recommend?q=our+app+is+slow+and+crashes", [
      { path: "query.q", message: `q (or problem) is required: describe the problem or project in up to ${LIMITS.query} characters` },
    ]);
  }
  const limit = Number(ctx.query.limit ?? 5);
  return searchAnswer(ctx, "recommend", limit, query, () => {
    const results = ctx.catalog.recommend(query, limit);
    return { results: results.map((r) => JSON.stringify(r)), best: results[0]?.score };
  }, `Nothing matched: describe the problem in more words, or browse GET ${API_PREFIX}/services.`);
};

const searchFaq: Handler = (ctx) => {
  const query = queryText(ctx, ["q"])!;
  const limit = Number(ctx.query.limit ?? 5);
  return searchAnswer(ctx, "faq", limit, query, () => ctx.catalog.searchFaq(query, limit), `No FAQ entry matched: try other words, or ask a person (GET ${API_PREFIX}/contact).`);
};

/** A search answer as it is served and cached, with what the query log needs to know of it. */
class SearchAnswer extends Serialized {
  constructor(text: string, readonly best: number | undefined, readonly count: number) {
    super(text);
  }
}

/**
 * A search answer from its results (each already JSON), remembered by the catalog; an empty one
 * says what to try instead. Spelled out, it is JSON.stringify({ query, count, results, hint? }).
 * A question that found little goes to the query log (when it is on), cached answer or not.
 */
function searchAnswer(ctx: RequestContext, kind: QuestionKind, limit: number, query: string, search: () => { results: string[]; best: number | undefined }, hint: string): Answer {
  const answer = ctx.catalog.cachedAnswer(`${kind}:${limit}:${query}`, () => {
    const { results, best } = search();
    const empty = results.length === 0 ? `,"hint":${JSON.stringify(hint)}` : "";
    return new SearchAnswer(`{"query":${JSON.stringify(query)},"count":${results.length},"results":[${results.join(",")}]${empty}}`, best, results.length);
  });
  if (ctx.questions && (answer.best === undefined || answer.best < WEAK_SCORE)) ctx.questions.record(kind, query, answer.best, answer.count);
  return { json: answer };
}

export const readHandlers: Record<string, Handler> = {
  getApiIndex: fixed("getApiIndex"),
  getCapabilities: fixed("getCapabilities"),
  listServices: fixed("listServices"),
  getService,
  listTechniques: fixed("listTechniques"),
  getCoda: fixed("getCoda"),
  getTesla: fixed("getTesla"),
  getCodaSecure: fixed("getCodaSecure"),
  recommend,
  searchFaq,
  listWaitlistTools: fixed("listWaitlistTools"),
  getGptAdvisorSetup: fixed("getGptAdvisorSetup"),
  getContact: fixed("getContact"),
  getOpenApi: fixed("getOpenApi"),
};
