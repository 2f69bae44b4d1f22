import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { SAMPLE_CONTENT } from "./helpers/content.js";

/** The GitHub workflows parse, and every command they run exists in this project. */
const root = join(SAMPLE_CONTENT, "..");
const SYSTEM_COMMANDS = new Set(["npm", "node"]);

describe("GitHub workflows", () => {
  it("are valid YAML whose steps run only scripts and commands of the project", async () => {
    const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    const cli = await readFile(join(root, "src/cli.ts"), "utf8");
    const files = (await readdir(join(root, ".github/workflows"))).filter((f) => /\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const workflow = YAML.parse(await readFile(join(root, ".github/workflows", file), "utf8")) as { on: unknown; jobs: Record<string, { steps: { run?: string; uses?: string }[] }> };
      expect(workflow.on, file).toBeDefined();
      for (const [job, { steps }] of Object.entries(workflow.jobs)) {
        for (const step of steps) {
          expect(step.run ?? step.uses, `${file} ${job}`).toBeTypeOf("string");
          if (!step.run) continue;
          const [command, first, second] = step.run.trim().split(/\s+/);
          expect(SYSTEM_COMMANDS.has(command!), `${file}: ${step.run}`).toBe(true);
          if (command === "npm" && first === "run") expect(pkg.scripts[second!], `${file}: ${step.run}`).toBeDefined();
          if (command === "npm" && first !== "run") expect(["install", "test", "start"], `${file}: ${step.run}`).toContain(first);
          if (command === "node") {
            expect(first, step.run).toBe("dist/cli.js");
            expect(cli, `${file}: frontdesk ${second} is not a command`).toContain(`.command("${second}`);
          }
        }
      }
    }
  });
});
