import { existsSync } from "node:fs";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@ringback/test-kit";
import { type Browser, chromium } from "playwright-core";

export interface ChromiumHandle extends AsyncDisposable {
  readonly browser: Browser;
}

/** Starts headless Chromium; each `browser.newContext()` is then one device with its own storage. */
export async function launchChromium(): Promise<ChromiumHandle> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
  return { browser, [Symbol.asyncDispose]: () => browser.close() };
}
