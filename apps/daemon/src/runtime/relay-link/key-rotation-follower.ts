import { keyId, sealedKeyId } from "@ringback/e2e-crypto";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey, followE2eKeyRotations } from "../keys/e2e-key.js";
import type { Logger } from "../logger.js";
import { RelayApi } from "./relay-api.js";

/** The least time between two reads of the notices prompted by messages sealed under another key. */
const KEY_FOLLOW_MIN_INTERVAL_MS = 10_000;

/**
 * This computer's side of key rotation over its relay link: the account's notices are read at every (re)connect (a
 * computer that was off while a device was removed moves now), and again when a message comes sealed under a key this
 * computer does not hold (a device followed a rotation whose remover could not reach this computer).
 */
export class KeyRotationFollower {
  readonly #config: ConfigFile;
  readonly #log: Logger;
  readonly #api: RelayApi;
  readonly #deviceToken: string;
  #lastPromptedAt = 0;

  constructor(options: { config: ConfigFile; log: Logger; serverUrl: string; deviceToken: string }) {
    this.#config = options.config;
    this.#log = options.log;
    this.#api = new RelayApi(options.serverUrl);
    this.#deviceToken = options.deviceToken;
  }

  /** Reads the notices and follows them from the current key; a failure is logged (the next connect reads again). */
  async follow(): Promise<void> {
    try {
      const { rotations } = await this.#api.keyRotations(this.#deviceToken);
      await followE2eKeyRotations(this.#config, rotations, new Date(), { log: this.#log });
    } catch (error) {
      this.#log(`key rotation notices not read: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /**
   * `follow` when `sealed` names a key other than this computer's, at most once per `KEY_FOLLOW_MIN_INTERVAL_MS`: a
   * flood of such messages (the removed device's, say) costs the relay one read in that time.
   */
  async followIfSealedUnderAnotherKey(sealed: string): Promise<void> {
    const named = namedKeyId(sealed);
    if (named === null || named === (await keyId(currentE2eKey(this.#config)))) return;
    const now = Date.now();
    if (now - this.#lastPromptedAt < KEY_FOLLOW_MIN_INTERVAL_MS) return;
    this.#lastPromptedAt = now;
    await this.follow();
  }
}

function namedKeyId(sealed: string): string | null {
  try {
    return sealedKeyId(sealed);
  } catch {
    return null;
  }
}
