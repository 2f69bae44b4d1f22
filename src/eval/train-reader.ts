import { writeFile } from "node:fs/promises";
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

/** One feature per line, so a retraining shows in a review as the weights it moved. */
export async function writeReader(model: ReaderModel, file: string): Promise<void> {
  await writeFile(file, `${JSON.stringify(model, null, 1)}\n`).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot write the model to ${file} (${error.code ?? error.message}): give --out a file in a folder that exists and is writable`);
  });
}
