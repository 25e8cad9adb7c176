import { stat } from "node:fs/promises";
import { join } from "node:path";
import { generateKey } from "@ringback/e2e-crypto";
import { writeFileDurably } from "@ringback/outbox";
import { DaemonConfig, LanguageTag } from "@ringback/protocol";
import type { Logger } from "../logger.js";
import { StartError } from "../start-error.js";
import { readTextIfExists, tightenFileMode } from "./private-file.js";

export const CONFIG_FILE = "daemon.json";

/** The file's JSON object as read, unknown keys included so that they survive every write. */
export type RawConfig = Record<string, unknown>;

/**
 * `{data_dir}/daemon.json`: read once at start (a malformed file stops the start, it is never reset), changed
 * only through `update`, which writes it atomically (mode 600) and makes the change current at once.
 */
export class ConfigFile {
  readonly path: string;
  /** When the file was last written before this start: the key's `updatedAt` when the file has none. */
  readonly modifiedAtStart: string;
  #raw: RawConfig;
  #config: DaemonConfig;
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(path: string, raw: RawConfig, config: DaemonConfig, modifiedAtStart: string) {
    this.path = path;
    this.#raw = raw;
    this.#config = config;
    this.modifiedAtStart = modifiedAtStart;
  }

  /** Reads the file; on the first run creates it with a new end-to-end key. */
  static async load(dataDir: string, log: Logger, now: () => Date = () => new Date()): Promise<ConfigFile> {
    const path = join(dataDir, CONFIG_FILE);
    const text = await readTextIfExists(path);
    const raw = text === null ? {} : parseConfigText(path, text);
    const problem = findProblem(raw);
    if (problem)
      throw new StartError(`${path}: ${problem}. Fix the file (it was left as it is) and start again.`);
    let modifiedAt = now().toISOString();
    if (text !== null) {
      await tightenFileMode(path, log);
      modifiedAt = (await stat(path)).mtime.toISOString();
    }
    const file = new ConfigFile(path, raw, DaemonConfig.parse(raw), modifiedAt);
    if (!file.config.e2e) {
      await file.update((current) => ({
        ...current,
        e2e: { key: generateKey(), source: "generated", updatedAt: now().toISOString() },
      }));
      log(`${text === null ? "created" : "added an end-to-end key to"} ${path}`);
    }
    return file;
  }

  /** The file's object as last written (do not mutate; use `update`). */
  get raw(): Readonly<RawConfig> {
    return this.#raw;
  }

  get config(): DaemonConfig {
    return this.#config;
  }

  /**
   * Applies `change` to a copy of the file's object, checks it, writes it (temporary file, fsync, rename,
   * mode 600) and makes it current. Updates run one after another, each on the result of the one before.
   */
  update(change: (raw: RawConfig) => RawConfig): Promise<DaemonConfig> {
    const write = this.#writes.then(async () => {
      const raw = change(structuredClone(this.#raw));
      const problem = findProblem(raw);
      if (problem) throw new Error(`refusing to write an invalid ${CONFIG_FILE}: ${problem}`);
      const config = DaemonConfig.parse(raw);
      await writeFileDurably(this.path, `${JSON.stringify(raw, null, 2)}\n`);
      this.#raw = raw;
      this.#config = config;
      return config;
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }
}

function parseConfigText(path: string, text: string): RawConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new StartError(`${path} is not valid JSON (${reason}). Fix the file (it was left as it is).`, {
      cause,
    });
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new StartError(`${path} must hold a JSON object. Fix the file (it was left as it is).`);
  }
  return json as RawConfig;
}

/** The first field that does not match `DaemonConfig`, as "field.path: message"; undefined when all do. */
function findProblem(raw: RawConfig): string | undefined {
  const parsed = DaemonConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join(".") || "(top level)"}: ${issue?.message}`;
  }
  // The schema reads brief.language as any string; a tag that is not language-region is a typo to point at.
  const language = parsed.data.brief?.language;
  if (language !== undefined && !LanguageTag.safeParse(language).success) {
    return `brief.language: "${language}" is not a BCP 47 language-region tag such as en-US`;
  }
  return undefined;
}
