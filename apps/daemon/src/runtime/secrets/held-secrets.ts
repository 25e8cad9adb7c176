import { CONFIG_FILE } from "../files/config-file.js";
import { DATA_FILE_MODE } from "../files/data-dir.js";
import { LOCAL_KEY_FILE } from "../keys/local-key.js";

/** A secret the daemon holds: where it is stored, who can read it, and where it is ever sent. */
export interface HeldSecret {
  readonly name: string;
  /** The file in the data dir (`~/.ringback`, or RINGBACK_HOME) that holds it. */
  readonly file: string;
  /** Where in the file: a JSON path in daemon.json, or null for the whole file. */
  readonly field: string | null;
  /** The mode the daemon writes the file with: the user alone reads it. */
  readonly mode: typeof DATA_FILE_MODE;
  /** Who reads it: the user's own processes; doctor warns when the file's mode lets others. */
  readonly readBy: string;
  /** The only place it goes, and what binds it there. */
  readonly sentTo: string;
}

/**
 * Every secret the daemon holds, in one place (the README's table is written from it). Nothing else the daemon
 * stores is a credential; none of these is ever logged, returned by the local interface (a hint at most) or sent to
 * the relay in plaintext.
 */
const HELD_SECRETS: readonly HeldSecret[] = [
  {
    name: "end-to-end key",
    file: CONFIG_FILE,
    field: "e2e.key",
    mode: DATA_FILE_MODE,
    readBy:
      "the daemon; `ringback key` and `ringback pair` show it to the user (in a pairing link's fragment)",
    sentTo: "nowhere: it seals and opens what goes through the relay, which never sees it",
  },
  {
    name: "relay device token",
    file: CONFIG_FILE,
    field: "relay.deviceToken",
    mode: DATA_FILE_MODE,
    readBy: "the daemon and `ringback doctor`",
    sentTo:
      "the relay this computer logged in to (serverUrl, or RINGBACK_SERVER_URL set on this computer), as a bearer token",
  },
  {
    name: "model API key",
    file: CONFIG_FILE,
    field: "llm.primary.apiKey",
    mode: DATA_FILE_MODE,
    readBy: "the daemon",
    sentTo:
      "the origin (scheme, host, port) of the model address it was saved with, as a bearer token; a new origin needs its own key, a redirect elsewhere drops it, link-local and metadata addresses are never called",
  },
  {
    name: "tracker token",
    file: CONFIG_FILE,
    field: "tracker.token",
    mode: DATA_FILE_MODE,
    readBy: "the daemon",
    sentTo:
      "the tracker's origin it was saved for (tracker.tokenOrigin); once DAEMON_TRACKER_API_URL names another, it is not sent until a token is saved again",
  },
  {
    name: "escalation channel secrets (ntfy token, Pushover user key and app token, Telegram bot token, Twilio auth token)",
    file: CONFIG_FILE,
    field: "escalation.channels",
    mode: DATA_FILE_MODE,
    readBy: "the daemon",
    sentTo:
      "each to its own service only: the ntfy token to the ntfy server it was saved with (another server needs its own), the Pushover keys to Pushover, the bot token to Telegram (in the request path, never logged), the auth token to the Twilio account it was saved with; never to the relay",
  },
  {
    name: "local API key",
    file: LOCAL_KEY_FILE,
    field: null,
    mode: DATA_FILE_MODE,
    readBy: "the daemon, the hooks and the ringback CLI (the user's own processes)",
    sentTo: "the daemon's local interface on 127.0.0.1 only",
  },
];

/** The files that hold a secret, each once, with the secrets in it. */
export function secretFiles(): Map<string, HeldSecret[]> {
  const files = new Map<string, HeldSecret[]>();
  for (const secret of HELD_SECRETS) files.set(secret.file, [...(files.get(secret.file) ?? []), secret]);
  return files;
}
