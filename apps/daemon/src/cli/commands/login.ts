import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { LocalLoginRequest, LocalLoginResult } from "@ringback/protocol";
import { CONFIG_FILE, ConfigFile } from "../../runtime/files/config-file.js";
import { ensureDataDir, resolveDataDir } from "../../runtime/files/data-dir.js";
import { createLogger } from "../../runtime/logger.js";
import { callRunningDaemon } from "../../runtime/relay-link/local-daemon-client.js";
import { loginToRelay } from "../../runtime/relay-link/login.js";
import { StartError } from "../../runtime/start-error.js";
import { askPassphrase, readPassphraseFromStdin } from "../passphrase-input.js";

export const summary = "create an account on the relay, or join one with a pairing link or code";
export const usage = `ringback login [<pairing link> | <12-digit code>] [--server URL] [--claim-code CODE]
                      [--passphrase-stdin] [--name NAME]

  (nothing)            create a new account with this computer as its first device; its end-to-end key
                       stays (or comes from the passphrase with --passphrase-stdin)
  <pairing link>       join the account of the device that made the link; the key in the link is adopted
  <12-digit code>      join with a pairing code; the key comes from the account's passphrase
  --server URL         the relay (default: the link's, RINGBACK_SERVER_URL, serverUrl in daemon.json,
                       http://127.0.0.1:8787)
  --claim-code CODE    the one-time code a new relay prints at its start, for its first account
  --passphrase-stdin   read the passphrase from stdin (otherwise it is asked for on a terminal)
  --name NAME          this computer's name in the device list (default: its host name)

When the daemon is running, it does the login itself and switches to the new identity at once.`;

/** `ringback login`: through the running daemon when there is one, else on daemon.json directly. */
export async function run(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      server: { type: "string" },
      "claim-code": { type: "string" },
      "passphrase-stdin": { type: "boolean" },
      name: { type: "string" },
    },
  });
  if (positionals.length > 1)
    throw new StartError(`one pairing link or code at most (quote the link)\n${usage}`);
  const pairing = positionals[0];
  const isCode = pairing !== undefined && /^[\d\s-]+$/.test(pairing);
  const passphrase = values["passphrase-stdin"]
    ? await readPassphraseFromStdin()
    : isCode
      ? await askPassphrase("joining with a code needs the passphrase: use --passphrase-stdin")
      : undefined;
  const parsed = LocalLoginRequest.safeParse({
    serverUrl: values.server,
    pairing,
    passphrase,
    claimCode: values["claim-code"],
    deviceName: values.name,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new StartError(`${issue?.path.join(".") || "login"}: ${issue?.message}`);
  }
  const dataDir = resolveDataDir(process.env);
  const previous = await currentAccount(dataDir);
  const throughDaemon = await callRunningDaemon(
    dataDir,
    process.env,
    "/local/login",
    parsed.data,
    LocalLoginResult,
  );
  const result = throughDaemon ?? (await loginWithoutDaemon(dataDir, parsed.data));
  process.stdout.write(describe(result, throughDaemon !== undefined));
  if (previous && previous.accountId !== result.accountId) {
    process.stdout.write(
      `This computer left account ${previous.accountId}${previous.serverUrl ? ` on ${previous.serverUrl}` : ""}: ` +
        "the devices paired there no longer get its calls (pair them again with: ringback pair).\n",
    );
  }
}

/** The account this computer belongs to before the login, as daemon.json says; null when none or unreadable. */
async function currentAccount(
  dataDir: string,
): Promise<{ accountId: string; serverUrl: string | null } | null> {
  try {
    const config = JSON.parse(await readFile(join(dataDir, CONFIG_FILE), "utf8")) as {
      serverUrl?: unknown;
      relay?: { accountId?: unknown };
    };
    const accountId = config.relay?.accountId;
    if (typeof accountId !== "string") return null;
    return { accountId, serverUrl: typeof config.serverUrl === "string" ? config.serverUrl : null };
  } catch {
    return null;
  }
}

async function loginWithoutDaemon(dataDir: string, request: LocalLoginRequest): Promise<LocalLoginResult> {
  const log = createLogger();
  await ensureDataDir(dataDir, log);
  const config = await ConfigFile.load(dataDir, log);
  const result = await loginToRelay(config, request, { env: process.env, now: new Date(), log });
  return { ...result, needsRestart: false };
}

function describe(result: LocalLoginResult, isThroughDaemon: boolean): string {
  const lines = [
    result.createdAccount
      ? `Created account ${result.accountId} on ${result.serverUrl}; this computer is device ${result.deviceId}.`
      : `Joined account ${result.accountId} on ${result.serverUrl}; this computer is device ${result.deviceId}.`,
    `End-to-end key ${result.keyId} (${result.keySource}).`,
  ];
  if (!isThroughDaemon) lines.push("Start the daemon with: ringback run");
  else if (result.needsRestart) {
    lines.push("The running daemon started without a relay: restart it so that waiting reports are sent.");
  } else lines.push("The running daemon uses the new identity now.");
  lines.push("Add your phone or browser with: ringback pair");
  return `${lines.join("\n")}\n`;
}
