import { parseArgs } from "node:util";
import { type PutE2eKeyRequest, PutE2eKeyResponse } from "@ringback/protocol";
import { ConfigFile } from "../../runtime/files/config-file.js";
import { ensureDataDir, resolveDataDir } from "../../runtime/files/data-dir.js";
import { replaceE2eKey } from "../../runtime/keys/e2e-key.js";
import { createLogger } from "../../runtime/logger.js";
import { callRunningDaemon } from "../../runtime/relay-link/local-daemon-client.js";
import { StartError } from "../../runtime/start-error.js";
import { askPassphrase, readPassphraseFromStdin } from "../passphrase-input.js";

export const summary = "replace the end-to-end key: from the account's passphrase, or a new random one";
export const usage = `ringback key [--passphrase-stdin | --random]

  (nothing)            asks for the passphrase on the terminal (at least 12 characters); only the key
                       derived from it is stored, never the phrase
  --passphrase-stdin   reads the passphrase from stdin instead
  --random             a new random key (devices then need a new pairing link: ringback pair)

Use the same passphrase as in the app's Settings › Encryption, so that the phone opens what this computer seals.
When the daemon is running, it takes the new key at once.`;

/** `ringback key`: `PUT /e2e/key` on the running daemon when there is one, else on daemon.json directly. */
export async function run(args: string[]): Promise<void> {
  const { values } = parseArgs({
    args,
    strict: true,
    options: { "passphrase-stdin": { type: "boolean" }, random: { type: "boolean" } },
  });
  if (values.random && values["passphrase-stdin"])
    throw new StartError(`--random takes no passphrase\n${usage}`);
  const request: PutE2eKeyRequest = values.random
    ? { random: true }
    : {
        passphrase: values["passphrase-stdin"]
          ? await readPassphraseFromStdin()
          : await askPassphrase("no terminal to ask the passphrase on: use --passphrase-stdin"),
      };
  const dataDir = resolveDataDir(process.env);
  const throughDaemon = await callRunningDaemon(
    dataDir,
    process.env,
    "/e2e/key",
    request,
    PutE2eKeyResponse,
    "PUT",
  );
  const result = throughDaemon ?? (await replaceWithoutDaemon(dataDir, request));
  process.stdout.write(
    `End-to-end key ${result.keyId} (${result.source}) is this computer's key now` +
      `${throughDaemon ? ", in the running daemon too" : ""}.\n`,
  );
}

async function replaceWithoutDaemon(dataDir: string, request: PutE2eKeyRequest): Promise<PutE2eKeyResponse> {
  const log = createLogger();
  await ensureDataDir(dataDir, log);
  return replaceE2eKey(await ConfigFile.load(dataDir, log), request, new Date(), { log });
}
