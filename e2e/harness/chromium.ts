import { existsSync } from "node:fs";
import { type BrowserForFile, CHROMIUM_ARGS, CHROMIUM_PATH, chromiumForFile } from "@ringback/test-kit";
import { type BrowserContext, type BrowserContextOptions, chromium } from "playwright-core";

/** What a test opens devices in: `newContext()` is one device with its own storage. */
export type DeviceBrowser = Pick<BrowserForFile<BrowserContextOptions, BrowserContext>, "newContext">;

export interface ChromiumHandle extends AsyncDisposable {
  readonly browser: DeviceBrowser;
}

/**
 * Headless Chromium, one for the whole worker (the files run one at a time in it); disposing closes the devices
 * this handle opened, and Chromium stays for the next.
 */
export async function launchChromium(): Promise<ChromiumHandle> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`);
  const browser = await chromiumForFile(() =>
    chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] }),
  );
  return { browser, [Symbol.asyncDispose]: () => browser.close() };
}
