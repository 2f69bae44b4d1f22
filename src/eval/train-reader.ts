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
  return trainReader(items.map((i) => ({ text: i.text, ...(i.type ? { type: i.type } : {}), pass: i.expected === "pass" })));
}

/** One feature per line, so a retraining shows in a review as the weights it moved. */
export async function writeReader(model: ReaderModel, file: string): Promise<void> {
  await writeFile(file, `${JSON.stringify(model, null, 1)}\n`);
}
