import * as fs from "node:fs/promises";
import { trainReader, type ReaderModel } from "../reviews/reader.js";
import { loadLabelled } from "./labelled.js";

/**
 * The ticket reader, trained on the dev parts of the labelled ticket sets alone, so the test parts
 * stay a measure of text it never saw. Attacks are left out: capping them is the rules' work, and
 * their made-up wording would teach it nothing about real tickets.
 */
export async function trainTicketReader(fixtures: string): Promise<ReaderModel> {
  const items = (await loadLabelled(fixtures, "tickets")).filter((i) => i.split === "dev" && !i.adversarial);
  const passes = items.filter((i) => i.expected === "pass").length;
  // A model of one label only would call every ticket alike: better no model than that one.
  if (passes === 0 || passes === items.length) {
    throw new Error(`${fixtures} holds ${items.length} labelled dev tickets (attacks aside), ${passes} of them passes: the reader needs both passes and fails to learn from`);
  }
  return trainReader(items.map((i) => ({ text: i.text, ...(i.type ? { type: i.type } : {}), pass: i.expected === "pass" })));
}

/** The file operations writing a model takes (tests hand in ones that fail as a full disk does). */
export type ModelFiles = Pick<typeof fs, "writeFile" | "rename" | "rm">;

/**
 * One feature per line, so a retraining shows in a review as the weights it moved. Written beside
 * the file and renamed over it: a full disk or a stop half-way leaves the old model whole.
 */
export async function writeReader(model: ReaderModel, file: string, files: ModelFiles = fs): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await files.writeFile(temporary, `${JSON.stringify(model, null, 1)}\n`);
    await files.rename(temporary, file);
  } catch (error) {
    await files.rm(temporary, { force: true });
    const { code, message } = error as NodeJS.ErrnoException;
    throw new Error(`cannot write the model to ${file} (${code ?? message}): give --out a file in a folder that exists and is writable, on a disk with room`);
  }
}
