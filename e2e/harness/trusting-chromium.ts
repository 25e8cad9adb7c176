import { execFileSync } from "node:child_process";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@ringback/test-kit";
import { chromium } from "playwright-core";
import type { ChromiumHandle } from "./chromium.ts";

/**
 * Headless Chromium as a phone on the network would be: `hostName` resolves to this machine (as a name in the
 * LAN's DNS would), and the CA at `caCertificatePath` is trusted the way a person installs one, in the user's NSS
 * database (`~/.pki/nssdb`, here under a `home` of the test's), never by ignoring certificate errors: service
 * workers and Web Push need a truly secure context.
 */
export async function launchTrustingChromium(options: {
  home: string;
  hostName: string;
  caCertificatePath: string;
}): Promise<ChromiumHandle> {
  const database = join(options.home, ".pki", "nssdb");
  await mkdir(database, { recursive: true });
  const certutil = (...args: string[]) =>
    execFileSync("certutil", ["-d", `sql:${database}`, ...args], { stdio: "pipe" });
  certutil("-N", "--empty-password");
  certutil("-A", "-t", "C,,", "-n", "ringback-test-ca", "-i", options.caCertificatePath);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, `--host-resolver-rules=MAP ${options.hostName} 127.0.0.1`],
    env: { PATH: process.env.PATH ?? "", HOME: options.home },
  });
  return { browser, [Symbol.asyncDispose]: () => browser.close() };
}
