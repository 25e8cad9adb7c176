import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Debian's Chromium (`.ci/run` installs it); CHROMIUM_PATH points elsewhere. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
];

export interface ChromiumHandle extends AsyncDisposable {
  readonly browser: Browser;
}

/** Starts headless Chromium; each `browser.newContext()` is then one device with its own storage. */
export async function launchChromium(): Promise<ChromiumHandle> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  return { browser, [Symbol.asyncDispose]: () => browser.close() };
}
