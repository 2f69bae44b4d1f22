import { afterAll } from "vitest";
import { removeTempDirs } from "./content.js";

// Run before every test file (vitest setupFiles): its temporary folders go once its last test
// and its own afterAll hooks (servers, stores) are done, so nothing is removed from under them.
afterAll(removeTempDirs);
