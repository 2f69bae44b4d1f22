import { chmod, unlink } from "node:fs/promises";
import { createConnection, createServer, type Socket } from "node:net";
import { createInterface } from "node:readline";
import { COLLECTIONS, StoreError, type Collection, type Erasure, type OperatorStore, type StoredRecord } from "./store.js";

/**
 * How `frontdesk data export` and `data erase` reach the embedded store while a server holds its
 * lock: the process that holds it answers on a Unix socket beside the data file
 * (`frontdesk.json.sock`, mode 0600 in the 0700 data folder, so only the file's owner connects;
 * nothing listens on the network). An erasure runs as one of the server's own transactions and an
 * export reads the server's memory, so neither needs the lock, and neither can meet a file that is
 * being compacted.
 *
 * The protocol is one JSON request line, answered by JSON lines: ["record", {...}] or
 * ["erasure", {...}] each, then ["done"] or ["error", "message"].
 */
export const controlPath = (file: string) => `${file}.sock`;

type Request = { command: "erase"; email: string } | { command: "records"; collection: Collection; since?: string };

export interface ControlServer {
  close(): Promise<void>;
}

/** Answers data commands for `store`; logs and goes on without when the socket cannot be made. */
export async function serveControl(store: OperatorStore, path: string, log: (message: string) => void): Promise<ControlServer | undefined> {
  // Whoever made a socket file here is gone: this process holds the lock.
  await unlink(path).catch(() => undefined);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    void answer(store, socket);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => resolve());
    });
    await chmod(path, 0o600);
  } catch (error) {
    server.close();
    log(`frontdesk data commands cannot reach this process while it runs: the socket ${path} could not be made (${(error as Error).message})`);
    return undefined;
  }
  return {
    close: async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
      await unlink(path).catch(() => undefined);
    },
  };
}

async function answer(store: OperatorStore, socket: Socket): Promise<void> {
  const send = async (message: unknown[]) => {
    if (!socket.write(`${JSON.stringify(message)}\n`)) await new Promise((resolve) => socket.once("drain", resolve));
  };
  socket.on("error", () => undefined); // the client went away; nothing to answer
  try {
    const request = parseRequest(await firstLine(socket));
    if (request.command === "erase") for (const change of await store.erase(request.email)) await send(["erasure", change]);
    else for await (const record of store.records(request.collection, request.since)) await send(["record", record]);
    await send(["done"]);
  } catch (error) {
    await send(["error", (error as Error).message]).catch(() => undefined);
  }
  socket.end();
}

function firstLine(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer) => {
      text += chunk.toString("utf8");
      const end = text.indexOf("\n");
      if (end >= 0) {
        socket.off("data", onData);
        resolve(text.slice(0, end));
      } else if (text.length > 64 * 1024) {
        reject(new Error("the request line is too long"));
      }
    };
    socket.on("data", onData);
    socket.once("end", () => reject(new Error("the request ended before its line did")));
  });
}

function parseRequest(line: string): Request {
  const request = JSON.parse(line) as Record<string, unknown>;
  if (request.command === "erase" && typeof request.email === "string") return { command: "erase", email: request.email };
  if (request.command === "records" && (COLLECTIONS as readonly unknown[]).includes(request.collection) && (request.since === undefined || typeof request.since === "string")) {
    return { command: "records", collection: request.collection as Collection, ...(request.since === undefined ? {} : { since: request.since as string }) };
  }
  throw new Error("not a data command this server knows");
}

/** The store of the server that answers on `path`, or undefined when none does. */
export async function connectControl(path: string): Promise<OperatorStore | undefined> {
  try {
    (await connect(path)).destroy();
  } catch {
    return undefined;
  }
  return {
    records: (collection, since) => ask<StoredRecord>(path, { command: "records", collection, ...(since === undefined ? {} : { since }) }, "record"),
    erase: async (email) => {
      const changes: Erasure[] = [];
      for await (const change of ask<Erasure>(path, { command: "erase", email }, "erasure")) changes.push(change);
      return changes;
    },
    close: async () => undefined,
  };
}

function connect(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path, () => resolve(socket));
    socket.once("error", reject);
  });
}

async function* ask<T>(path: string, request: Request, kind: string): AsyncIterable<T> {
  const socket = await connect(path);
  try {
    socket.write(`${JSON.stringify(request)}\n`);
    for await (const line of createInterface({ input: socket, crlfDelay: Infinity })) {
      const [type, payload] = JSON.parse(line) as [string, unknown];
      if (type === kind) yield payload as T;
      else if (type === "done") return;
      else throw new StoreError(`the server holding the data file refused: ${String(payload)}`);
    }
    throw new StoreError("the server holding the data file stopped answering before it was done");
  } finally {
    socket.destroy();
  }
}
