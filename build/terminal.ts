import type { Diagnostic } from "./diagnostics.js";
import { formatDiagnostic, type ReportFormat } from "./diagnostics.js";

/**
 * Output for people: colour on a terminal (unless NO_COLOR is set), plain text everywhere else,
 * so logs and CI output stay greppable.
 */
const useColour = () => process.stderr.isTTY === true && !process.env.NO_COLOR;
const CODES = { red: 31, yellow: 33, green: 32, dim: 2 } as const;

export function paint(text: string, colour: keyof typeof CODES): string {
  return useColour() ? `\u001b[${CODES[colour]}m${text}\u001b[0m` : text;
}

export function printDiagnostics(diagnostics: Diagnostic[], format: ReportFormat): void {
  for (const d of diagnostics) {
    const line = formatDiagnostic(d, format);
    console.error(format === "github" ? line : paint(line, d.severity === "error" ? "red" : "yellow"));
  }
}

/** The closing line of a build: green when it published, red when it did not. */
export function printSummary(ok: boolean, text: string): void {
  console.error(paint(text, ok ? "green" : "red"));
}
