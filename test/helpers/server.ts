import { spawn, type ChildProcess } from "node:child_process";

/**
 * The real server, as `frontdesk serve` runs it, on a free port; resolves once it listens. It
 * runs from the sources unless another entry (the built dist/cli.js) is given.
 */
export async function startServer(env: Record<string, string>, cli: string[] = ["--import", "tsx", "src/cli.ts"]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [...cli, "serve"], {
    env: { ...process.env, PORT: "0", LOG_LEVEL: "info", FRONTDESK_CATALOG_POLL_MS: "0", RATE_LIMIT_WRITE_PER_MINUTE: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { child, url };
}
