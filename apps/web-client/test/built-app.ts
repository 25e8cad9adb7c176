import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type BrowserForFile,
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  chromiumForFile as workerChromiumForFile,
} from "@ringback/test-kit";
import { type BrowserContext, type BrowserContextOptions, chromium, type Page } from "playwright-core";
import { expect } from "vitest";

/** The built web app (`pnpm build` first: the browser tests drive what ships). */
export const DIST = fileURLToPath(new URL("../dist/", import.meta.url));
/** Screenshots the browser tests keep (turbo's test outputs). */
export const ARTIFACTS = fileURLToPath(new URL("../test-artifacts/", import.meta.url));

/** Fails at once, with what to do, when the build or Debian's Chromium is missing. */
function expectBuiltAppAndChromium(): void {
  expect(existsSync(`${DIST}index.html`), "dist/ is missing: run the build first").toBe(true);
  expect(existsSync(CHROMIUM_PATH), `no Chromium at ${CHROMIUM_PATH} (set CHROMIUM_PATH)`).toBe(true);
  mkdirSync(ARTIFACTS, { recursive: true });
}

/** A test file's share of the worker's Chromium: the contexts (devices) it opens, closed again by `close()`. */
export type FileBrowser = BrowserForFile<BrowserContextOptions, BrowserContext>;

/**
 * Headless Chromium for the built app, one for all files of the worker: fails at once, with what to do, when the
 * build or Chromium is missing.
 */
export function chromiumForFile(): Promise<FileBrowser> {
  expectBuiltAppAndChromium();
  return workerChromiumForFile(() =>
    chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] }),
  );
}

/** A page in a fresh browser context (one device) with `options`; its uncaught errors are pushed to `errors`. */
export async function openPage(
  browser: FileBrowser,
  options: BrowserContextOptions,
  errors: string[],
  timeoutMs?: number,
): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  if (timeoutMs !== undefined) page.setDefaultTimeout(timeoutMs);
  page.on("pageerror", (error) => errors.push(String(error)));
  return page;
}

/** Creates the account from the welcome page at `origin` as a person does: the phrase, Create, the idle screen. */
export async function createAccount(
  page: Page,
  origin: string,
  phrase: string,
  options: { readonly isTouch?: boolean; readonly timeoutMs?: number } = {},
): Promise<void> {
  await page.goto(origin);
  await page.getByTestId("new-account-phrase").fill(phrase);
  const create = page.getByTestId("create-account");
  await (options.isTouch ? create.tap() : create.click());
  await page.getByTestId("idle-screen").waitFor({ timeout: options.timeoutMs });
}
