import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { DIST_ENTRY, PACKAGE_DIR } from "../scripts/ensure-dist.ts";
import type { E2eLibrary, TestVectors } from "./vector-checks.ts";

/** test-vectors.json as shipped in the package. */
export function loadVectors(): TestVectors {
  return JSON.parse(readFileSync(`${PACKAGE_DIR}/test-vectors.json`, "utf8")) as TestVectors;
}

/** The built bundle (a second copy of the package next to the src/ one vitest loads). */
export async function importDist(): Promise<E2eLibrary> {
  return (await import(pathToFileURL(DIST_ENTRY).href)) as E2eLibrary;
}
