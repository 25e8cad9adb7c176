import { parseArgs } from "node:util";
import { PairingResult } from "@ringback/protocol";
import QRCode from "qrcode";
import { ConfigFile } from "../../runtime/files/config-file.js";
import { ensureDataDir, resolveDataDir } from "../../runtime/files/data-dir.js";
import { createLogger } from "../../runtime/logger.js";
import { callRunningDaemon } from "../../runtime/relay-link/local-daemon-client.js";
import { createPairing } from "../../runtime/relay-link/pairing.js";

export const summary = "print a pairing link and QR code to add a phone or browser to this account";
export const usage = `ringback pair [--json]

Creates a pairing code at the relay (12 digits, single use, 10 minutes) and prints the pairing link, which carries
the end-to-end key in its fragment, as text and as a QR code. Open it on the new device, or type the code there
together with the account's passphrase. The link opens the web app at RINGBACK_APP_URL, else at the relay.
  --json   print {serverUrl, code, key, expiresAt, link} instead`;

/** `ringback pair`: through the running daemon when there is one, else from daemon.json directly. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, strict: true, options: { json: { type: "boolean" } } });
  const dataDir = resolveDataDir(process.env);
  const pairing =
    (await callRunningDaemon(dataDir, process.env, "/local/pairing", {}, PairingResult)) ??
    (await pairWithoutDaemon(dataDir));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(pairing)}\n`);
    return;
  }
  const qrCode = await QRCode.toString(pairing.link, { type: "terminal", small: true });
  const expiresAt = new Date(pairing.expiresAt).toLocaleTimeString();
  process.stdout.write(
    `Open this link on the phone or browser to add (it holds your end-to-end key: share it with no one):\n\n` +
      `${pairing.link}\n\n${qrCode}\n` +
      `Or enter the code ${pairing.code} there with the account's passphrase. Valid once, until ${expiresAt}.\n`,
  );
}

async function pairWithoutDaemon(dataDir: string): Promise<PairingResult> {
  const log = createLogger();
  await ensureDataDir(dataDir, log);
  return createPairing(await ConfigFile.load(dataDir, log), process.env);
}
