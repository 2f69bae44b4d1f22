// One autocannon run from a process of its own, so the benchmark's own work (a generated content
// tree in memory, its garbage collection) never competes with the load. Options arrive as JSON in
// argv[2]: { url, connections, seconds, method?, body?, pathsFile?, offset? }; a paths file (one
// request path a line) makes the requests rotate through those paths, from the offset-th on.
// Prints { rps, p99, errors }.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";

const options = JSON.parse(process.argv[2]);
const paths = options.pathsFile ? readFileSync(options.pathsFile, "utf8").split("\n").filter(Boolean) : undefined;
let turn = options.offset ?? 0;
const result = await autocannon({
  url: options.url,
  connections: options.connections,
  duration: options.seconds,
  method: options.method ?? "GET",
  ...(paths ? { requests: [{ setupRequest: (request) => ({ ...request, path: paths[turn++ % paths.length] }) }] } : {}),
  ...(options.body ? { body: options.body, headers: { "content-type": "application/json" } } : {}),
});
console.log(JSON.stringify({ rps: result.requests.average, p99: result.latency.p99, errors: result.non2xx + result.errors }));
