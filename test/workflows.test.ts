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

  it("test on Node 20, 22 and 24, and on main publish the catalog to GitHub Pages once the tests pass", async () => {
    type Job = { needs?: string | string[]; if?: string; strategy?: { matrix: { node: number[] } }; steps: { run?: string; uses?: string }[] };
    const workflow = YAML.parse(await readFile(join(root, ".github/workflows/content.yml"), "utf8")) as { on: { push: { branches: string[]; tags: string[] } }; jobs: Record<string, Job> };
    const { test, publish, image } = workflow.jobs;
    expect(test!.strategy!.matrix.node).toEqual([20, 22, 24]);
    expect(test!.steps.map((s) => s.run)).toContain("npm test");
    expect(publish!.needs).toBe("test");
    expect(publish!.if).toContain("refs/heads/main");
    const runs = publish!.steps.map((s) => s.run ?? s.uses ?? "");
    const at = (prefix: string) => runs.findIndex((r) => r.startsWith(prefix));
    expect(at("npm run build")).toBeGreaterThanOrEqual(0);
    expect(at("node dist/cli.js publish --out site")).toBeGreaterThan(at("npm run build"));
    expect(at("actions/upload-pages-artifact")).toBeGreaterThan(at("node dist/cli.js publish"));
    expect(at("actions/deploy-pages")).toBeGreaterThan(at("actions/upload-pages-artifact"));
    // The image is pushed on version tags only, after the tests.
    expect(workflow.on.push.tags).toEqual(["v*"]);
    expect([image!.if, image!.needs]).toEqual(["startsWith(github.ref, 'refs/tags/v')", "test"]);
    expect(image!.steps.map((s) => s.uses)).toEqual(expect.arrayContaining([expect.stringMatching(/^docker\/login-action@/), expect.stringMatching(/^docker\/build-push-action@/)]));
  });
});

/**
 * No Docker engine runs here, so the image recipe is checked as text: CI builds it. A build stage
 * installs and builds; the runtime stage is the official Node image, runs as the non-root user
 * node, checks /healthz, and installs nothing.
 */
describe("the image", () => {
  it("is built in two stages, runs as a non-root user with a health check, and installs packages in the build stage only", async () => {
    const lines = (await readFile(join(root, "Dockerfile"), "utf8")).split("\n").filter((l) => l.trim() && !l.trim().startsWith("#"));
    const stages: { from: string; lines: string[] }[] = [];
    for (const line of lines) {
      if (/^FROM /i.test(line)) stages.push({ from: line, lines: [] });
      else stages.at(-1)!.lines.push(line);
    }
    expect(stages.map((s) => s.from)).toEqual([expect.stringMatching(/^FROM node:\d+-slim AS build$/), expect.stringMatching(/^FROM node:\d+-slim AS runtime$/)]);
    const [build, runtime] = stages as [(typeof stages)[0], (typeof stages)[0]];
    expect(build.lines.some((l) => /npm (ci|install)/.test(l))).toBe(true);
    expect(build.lines.some((l) => /npm run build/.test(l))).toBe(true);
    expect(runtime.lines.filter((l) => /npm (ci|install)|apt-get/.test(l))).toEqual([]);
    const users = runtime.lines.filter((l) => /^USER /.test(l));
    expect(users).toEqual(["USER node"]);
    expect(runtime.lines.join("\n")).toMatch(/HEALTHCHECK[\s\S]*\/healthz/);
    expect(runtime.lines.some((l) => /^COPY --from=build .*\/app\/dist/.test(l))).toBe(true);
    expect(runtime.lines.at(-1)).toBe('CMD ["node", "dist/cli.js", "serve"]');
  });

  it("comes with a compose file that wires PostgreSQL (named volume, DATABASE_URL) and the catalog address", async () => {
    const compose = YAML.parse(await readFile(join(root, "compose.yaml"), "utf8")) as {
      services: Record<string, { environment?: Record<string, string>; volumes?: string[]; depends_on?: Record<string, unknown> }>;
      volumes: Record<string, unknown>;
    };
    const { frontdesk, db } = compose.services;
    expect(frontdesk!.environment!.DATABASE_URL).toMatch(/^postgres:\/\/frontdesk:[^@]+@db:5432\/frontdesk$/);
    expect(frontdesk!.environment).toHaveProperty("FRONTDESK_CATALOG_URL");
    expect(frontdesk!.depends_on).toHaveProperty("db");
    const [volume] = db!.volumes![0]!.split(":");
    expect(Object.keys(compose.volumes)).toContain(volume);
  });
});

/** What the README tells an operator about the image holds for the files it speaks of. */
describe("the README on the image", () => {
  it("says where the image comes from and how docker run and docker compose use it, as the files do", async () => {
    const readme = await readFile(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## The server image"), readme.indexOf("\n## ", readme.indexOf("## The server image") + 1));
    expect(section.startsWith("## The server image")).toBe(true);
    const workflow = await readFile(join(root, ".github/workflows/content.yml"), "utf8");
    const dockerfile = await readFile(join(root, "Dockerfile"), "utf8");
    const compose = YAML.parse(await readFile(join(root, "compose.yaml"), "utf8")) as { services: Record<string, { image?: string; environment?: Record<string, string> }> };

    expect(section).toContain("`v*` tag");
    expect(workflow).toContain("ghcr.io/${{ github.repository }}:${{ github.ref_name }}");
    expect(section).toContain("`docker run -p 3000:3000 ghcr.io/<owner>/<repo>:<tag>` answers at once with the sample catalog");
    expect(dockerfile).toMatch(/^EXPOSE 3000$/m);
    expect(dockerfile).toMatch(/HOST=0\.0\.0\.0 PORT=3000 FRONTDESK_CATALOG=\/app\/dist\/catalog FRONTDESK_DATA=\/data\/frontdesk\.json/);
    expect(section).toContain("`FRONTDESK_CATALOG=/app/dist/catalog`");
    expect(section).toContain("`FRONTDESK_DATA=/data/frontdesk.json`");
    expect(section).toContain("`docker compose up`");
    expect(section).toContain(`\`${compose.services.frontdesk!.image}\``);
    for (const name of ["FRONTDESK_CATALOG_URL", "PUBLIC_BASE_URL", "TRUST_PROXY", "DATABASE_URL"]) {
      expect(compose.services.frontdesk!.environment, name).toHaveProperty(name);
      expect(section, name).toContain(`\`${name}\``);
    }
    expect(section).toContain("test/workflows.test.ts");
    expect(section).toMatch(/Source must be set to \*\*GitHub\s+Actions\*\*/);
  });
});
