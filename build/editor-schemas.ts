import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { publishedSchemaFiles, schemas, type SchemaName } from "./schemas.js";

/**
 * The content schemas as files, for editors: YAML files point at them with a
 * `# yaml-language-server: $schema=…` modeline and get completion and checks while typing.
 */
export function editorSchemaFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, file] of Object.entries(publishedSchemaFiles) as [SchemaName, string][]) {
    const schema = { $schema: "http://json-schema.org/draft-07/schema#", $id: file, title: `Frontdesk ${name} content`, ...schemas[name] };
    out[file] = `${JSON.stringify(schema, null, 2)}\n`;
  }
  return out;
}

export async function writeEditorSchemas(folder: string): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const files = editorSchemaFiles();
  for (const [file, text] of Object.entries(files)) await writeFile(join(folder, file), text);
  return Object.keys(files).map((f) => join(folder, f));
}
