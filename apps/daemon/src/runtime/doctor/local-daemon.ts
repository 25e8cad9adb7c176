import { join } from "node:path";
import { DaemonConfig, DEFAULT_LOCAL_PORT, modelCallLimits } from "@ringback/protocol";
import { CONFIG_FILE } from "../files/config-file.js";
import { resolveDataDir } from "../files/data-dir.js";
import { readTextIfExists } from "../files/private-file.js";
import { type LastSealedMessage, readLastSealedMessage } from "../keys/last-sealed-message.js";
import { LOCAL_KEY_FILE } from "../keys/local-key.js";
import { type LocalAnswer, signedLocalRequest } from "../keys/signed-local-request.js";
import { StartError } from "../start-error.js";

/** A bounded local call: a daemon that does not answer within it is as good as down. */
const LOCAL_CALL_TIMEOUT_MS = 5_000;
/**
 * How much longer than the model's overall limit a model test is waited for: the daemon answers a failure no sooner
 * than 2 s after it began (LLM_TEST_FAILURE_MIN_MS), plus the local round trip.
 */
export const MODEL_TEST_VERDICT_GRACE_MS = 15_000;

/** The model test runs the brief's own call: its verdict may take the channel's whole overall limit, and the grace. */
export function modelTestWaitMs(channel: { baseUrl: string; timeoutMs?: number | undefined }): number {
  return modelCallLimits(channel).timeoutMs + MODEL_TEST_VERDICT_GRACE_MS;
}

/**
 * What doctor knows of the data dir before asking anyone: daemon.json as written, the local key, and the key id
 * of the last sealed message a device sent.
 */
export interface DataDirFacts {
  readonly dataDir: string;
  /** Null when daemon.json is missing; a string when it cannot be read (what is wrong). */
  readonly config: DaemonConfig | string | null;
  readonly localKey: string | null;
  readonly port: number;
  /** Null until a device has sent a sealed settings request or reply (or when its file cannot be read). */
  readonly lastSealedMessage: LastSealedMessage | null;
}

export async function readDataDir(dataDir: string, env: NodeJS.ProcessEnv): Promise<DataDirFacts> {
  const localKey = (await readTextIfExists(join(dataDir, LOCAL_KEY_FILE)))?.trim() || null;
  const text = await readTextIfExists(join(dataDir, CONFIG_FILE));
  let config: DaemonConfig | string | null = null;
  if (text !== null) {
    try {
      config = DaemonConfig.parse(JSON.parse(text));
    } catch (error) {
      config = `${join(dataDir, CONFIG_FILE)} cannot be read: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`;
    }
  }
  const override = Number(env.RINGBACK_PORT);
  const port =
    env.RINGBACK_PORT && Number.isInteger(override) && override > 0
      ? override
      : typeof config === "object" && config !== null
        ? config.localPort
        : DEFAULT_LOCAL_PORT;
  return { dataDir, config, localKey, port, lastSealedMessage: await readLastSealedMessage(dataDir) };
}

/**
 * The running daemon's local interface, asked signed with the local key (never carrying it, as the hook does), so a
 * program holding the port in its place learns no key.
 */
export class LocalDaemon {
  constructor(
    readonly port: number,
    readonly localKey: string,
  ) {}

  /** What answers on the port, proven or not; null when nothing does. */
  async call(
    method: "GET" | "POST" | "PUT",
    path: string,
    body?: unknown,
    timeoutMs = LOCAL_CALL_TIMEOUT_MS,
  ): Promise<LocalAnswer | null> {
    try {
      return await signedLocalRequest({
        port: this.port,
        localKey: this.localKey,
        method,
        path,
        body,
        timeoutMs,
      });
    } catch {
      return null;
    }
  }

  /** The daemon's answer; null when nothing answers, or when what answers cannot prove it holds the key. */
  async ask(
    method: "GET" | "POST" | "PUT",
    path: string,
    body?: unknown,
    timeoutMs = LOCAL_CALL_TIMEOUT_MS,
  ): Promise<LocalAnswer | null> {
    const answer = await this.call(method, path, body, timeoutMs);
    return answer?.isProven ? answer : null;
  }
}

/** The daemon of this data dir, for a command that talks to it; a data dir it never ran on stops the command. */
export async function runningDaemon(env: NodeJS.ProcessEnv): Promise<LocalDaemon> {
  const facts = await readDataDir(resolveDataDir(env), env);
  if (!facts.localKey) throw new StartError("the daemon has not run on this computer yet: ringback run");
  return new LocalDaemon(facts.port, facts.localKey);
}
