import { join } from "node:path";
import { parseArgs } from "node:util";
import { resolveDataDir } from "../runtime/files/data-dir.js";
import { StartError } from "../runtime/start-error.js";

/** How this terminal joins the account the first time; later runs reuse the saved device. */
type ListenJoin =
  | { readonly kind: "link"; readonly link: string }
  | {
      readonly kind: "code";
      readonly serverUrl: string;
      readonly code: string;
      readonly isPassphraseOnStdin: boolean;
    }
  | { readonly kind: "saved" };

export interface ListenOptions {
  readonly join: ListenJoin;
  /** Where the device (key, token, calls) is kept: a folder only this user may enter. */
  readonly dir: string;
  readonly deviceName: string;
  /** Desktop notifications through notify-send, where it exists. */
  readonly isNotifying: boolean;
}

export const LISTEN_USAGE = `ringback listen [--pair <link> | --server <url> --code <code> [--passphrase-stdin]]
                [--name <device name>] [--dir <folder>] [--no-notify]

A companion in this terminal: it rings (bell, and a desktop notification where notify-send exists) when an agent
finishes or waits for your permission ("needs you"), shows the brief or the exact request, and answers, rejects,
acknowledges, allows or denies, so the other devices stop ringing.
The first run joins the account: with a pairing link from \`ringback pair\` (--pair), or with the 12-digit code and the
account's passphrase (--server, --code; the passphrase is asked on the terminal, or read from the first line of stdin
with --passphrase-stdin). The device is kept in --dir (default {data_dir}/listen, RINGBACK_LISTEN_DIR) for later runs.
A terminal that has just joined rings only for calls raised after it joined (older ones, decided or not, are missed).
A call that needs you rings first: a ringing call steps aside for it (here only) and waits; whenever the calls that
wait change, one line lists them in the order they come ("Waiting (2): ...").
With no call ringing or in progress, it shows every computer's agents, and again whenever one changes ("payments ·
Claude Code on laptop: working 12 min", "needs you: run npm test", "finished 2 min ago — <headline>").

While listening, type a command and Enter:
  a, answer        answer the ringing call (the brief in full, then h to hang up); with none ringing, the first call
                   that stepped aside for one that needed you
  r, reject        reject the ringing call
  k, ack           acknowledge: the ringing call, or else every missed call
  h, hang-up       end the call in progress
  reply <text>     reply to the agent of the last call (resumes the agent)
  allow            a "needs you" call (an agent waits for permission): allow it once
  deny [reason]    a "needs you" call: deny it; the reason, if any, goes to the agent
  s, status        every computer's agents now (as ringback status prints them)
  q, quit          stop listening`;

export function parseListenOptions(args: string[], env: NodeJS.ProcessEnv): ListenOptions {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      pair: { type: "string" },
      server: { type: "string" },
      code: { type: "string" },
      "passphrase-stdin": { type: "boolean" },
      name: { type: "string" },
      dir: { type: "string" },
      "no-notify": { type: "boolean" },
    },
  });
  if (values.pair !== undefined && (values.server !== undefined || values.code !== undefined))
    throw new StartError(`--pair takes no --server or --code\n${LISTEN_USAGE}`);
  if ((values.server === undefined) !== (values.code === undefined))
    throw new StartError(`joining with a code needs both --server and --code\n${LISTEN_USAGE}`);
  if (values["passphrase-stdin"] && values.code === undefined)
    throw new StartError(`--passphrase-stdin goes with --code\n${LISTEN_USAGE}`);
  const name = values.name?.trim();
  if (values.name !== undefined && !name) throw new StartError("--name must not be empty");
  const joining: ListenJoin =
    values.pair !== undefined
      ? { kind: "link", link: values.pair }
      : values.server !== undefined && values.code !== undefined
        ? {
            kind: "code",
            serverUrl: values.server,
            code: values.code,
            isPassphraseOnStdin: values["passphrase-stdin"] === true,
          }
        : { kind: "saved" };
  return {
    join: joining,
    dir: values.dir ?? (env.RINGBACK_LISTEN_DIR?.trim() || join(resolveDataDir(env), "listen")),
    deviceName: name ?? "Terminal",
    isNotifying: values["no-notify"] !== true,
  };
}
