import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@ringback/test-kit";
import { type Browser, chromium } from "playwright-core";
import { expect } from "vitest";

/** The built web app (`pnpm build` first: the browser tests drive what ships). */
export const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
/** Screenshots the browser tests keep (turbo's test outputs). */
export const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

/** Fails at once, with what to do, when the build or Debian's Chromium is missing. */
export function expectBuiltAppAndChromium(): void {
  expect(existsSync(`${DIST}index.html`), "dist/ is missing: run the build first").toBe(true);
  expect(existsSync(CHROMIUM_PATH), `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`).toBe(true);
  mkdirSync(ARTIFACTS, { recursive: true });
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
}
