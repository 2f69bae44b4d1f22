import { afterEach, describe, expect, it, vi } from "vitest";
import { paint, printSummary } from "../build/terminal.js";

const tty = Object.getOwnPropertyDescriptor(process.stderr, "isTTY");
afterEach(() => {
  if (tty) Object.defineProperty(process.stderr, "isTTY", tty);
  else delete (process.stderr as { isTTY?: boolean }).isTTY;
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe("terminal output", () => {
  it("is coloured on a terminal and plain elsewhere or with NO_COLOR", () => {
    Object.defineProperty(process.stderr, "isTTY", { value: true, configurable: true });
    vi.stubEnv("NO_COLOR", "");
    expect(paint("ok", "green")).toBe("\u001b[32mok\u001b[0m");
    vi.stubEnv("NO_COLOR", "1");
    expect(paint("ok", "green")).toBe("ok");
    Object.defineProperty(process.stderr, "isTTY", { value: false, configurable: true });
    vi.stubEnv("NO_COLOR", "");
    const lines: string[] = [];
    vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    printSummary(false, "build failed");
    expect(lines).toEqual(["build failed"]);
  });
});
