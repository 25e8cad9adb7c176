import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import {
  ALWAYS_RING,
  CallCenter,
  joinWithCode,
  joinWithLink,
  LocalSettings,
  type Pairing,
} from "@ringback/client";
import { openFileStore } from "@ringback/client/node";
import { findDesktopNotifier } from "../../listen/desktop-notifier.js";
import { FleetWatch } from "../../listen/fleet-watch.js";
import { joinedNow } from "../../listen/joined-now.js";
import { LineQueue } from "../../listen/line-queue.js";
import { LISTEN_USAGE, type ListenOptions, parseListenOptions } from "../../listen/listen-options.js";
import { ListenSession } from "../../listen/listen-session.js";
import { StartError } from "../../runtime/start-error.js";
import { askPassphrase } from "../passphrase-input.js";

export const summary =
  "a companion in this terminal: rings when an agent finishes; answer, reject or acknowledge";
export const usage = LISTEN_USAGE;

/** `ringback listen`: joins once (link or code), then rings here until `q` or Ctrl-C. */
export async function run(args: string[]): Promise<void> {
  const options = parseListenOptions(args, process.env);
  await mkdir(options.dir, { recursive: true, mode: 0o700 });
  const store = await openFileStore(join(options.dir, "device.store"));
  const settings = new LocalSettings(store);
  const lines = new LineQueue(createInterface({ input: process.stdin, terminal: false }));
  const fresh = await joinAsAsked(options, lines).catch(notJoined);
  const joined = fresh && joinedNow(fresh);
  const pairing = joined ?? (await settings.loadPairing());
  if (!pairing)
    throw new StartError(
      `this terminal has not joined an account yet: ringback listen --pair '<link from ringback pair>'\n${usage}`,
    );
  await settings.savePairing(pairing);
  const { serverUrl } = pairing.identity;
  process.stdout.write(
    joined
      ? `This terminal joined the account as "${options.deviceName}" at ${serverUrl}. q quits.\n`
      : `This terminal listens with its saved device (${options.dir}) at ${serverUrl}. q quits.\n`,
  );

  let isQuitting = false;
  const quit = async (code: number) => {
    if (isQuitting) return;
    isQuitting = true;
    center.stop();
    fleet.stop();
    await center.persisted();
    lines.close();
    process.exit(code);
  };
  const center = new CallCenter({
    store,
    pairing: () => pairing,
    schedule: () => ALWAYS_RING,
    onDeviceRemoved: () => {
      process.stderr.write("ringback: this terminal was removed from the account; join again with --pair\n");
      settings
        .clearPairing()
        .finally(() => quit(1))
        .catch(() => undefined);
    },
  });
  const fleet = new FleetWatch({
    relay: { serverUrl, deviceToken: pairing.identity.deviceToken, key: pairing.key },
    onChange: (fleetNow) => session.showFleet(fleetNow),
  });
  const session = new ListenSession({
    center,
    write: (text) => process.stdout.write(text),
    notifier: options.isNotifying ? await findDesktopNotifier(process.env) : null,
    quit: () => {
      quit(0).catch(() => undefined);
    },
    onStatus: () => process.stdout.write(`${fleet.lines().join("\n")}\n`),
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const)
    process.on(signal, () => {
      quit(0).catch(() => undefined);
    });
  await center.load();
  center.connect();
  fleet.start();
  lines.consume((line) => session.command(line));
}

function notJoined(error: unknown): never {
  const reason = error instanceof Error ? error.message : String(error);
  throw new StartError(`could not join the account: ${reason} (ask for a new link or code: ringback pair)`);
}

/** Joins with the link or code given; null when none was given (the saved device is used). */
async function joinAsAsked(options: ListenOptions, lines: LineQueue): Promise<Pairing | null> {
  const device = { deviceName: options.deviceName, deviceKind: "phone" as const };
  const { join: joining } = options;
  if (joining.kind === "link") return joinWithLink(joining.link, device);
  if (joining.kind === "saved") return null;
  const phrase = joining.isPassphraseOnStdin
    ? await lines.next()
    : await askPassphrase("no terminal to ask the passphrase on: use --passphrase-stdin");
  if (phrase === null) throw new StartError("--passphrase-stdin: stdin ended before a passphrase");
  return joinWithCode({ serverUrl: joining.serverUrl, code: joining.code, phrase }, device);
}
