/**
 * What the build reports to an editor: one finding per mistake, pointing at the offending place.
 * Formatting lives here too, so the CLI and the tests print the very same lines.
 */
export type Severity = "error" | "warning";

export interface Diagnostic {
  /** Path as the editor knows it: the content folder joined with the file's relative path. */
  file: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
}

export type ReportFormat = "text" | "github";

export function formatDiagnostic(d: Diagnostic, format: ReportFormat): string {
  if (format === "github") {
    // GitHub workflow commands: the message must not contain raw newlines or '%'.
    const message = d.message.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
    return `::${d.severity} file=${d.file},line=${d.line},col=${d.column}::${message}`;
  }
  return `${d.file}:${d.line}:${d.column} ${d.severity === "warning" ? "warning " : ""}${d.message}`;
}

/** Stable order: by file, then position, so two runs print identical reports. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line || a.column - b.column ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}
