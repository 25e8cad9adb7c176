import { createHash } from "node:crypto";
import { aad, type E2eKey, sealJson } from "@ringback/e2e-crypto";
import type { DaemonToRelayMessage, RelayToDaemonMessage } from "@ringback/protocol";
import type { LastSealedMessageFile } from "../keys/last-sealed-message.js";
import type { Logger } from "../logger.js";
import type { ReplayGuard } from "../replay-guard.js";
import { checkDecision, DECISION_REFUSALS } from "./decision-check.js";
import type { PendingAsks } from "./pending-asks.js";

type LinkReply = Extract<RelayToDaemonMessage, { type: "reply" }>;
type LinkReplyStatus = Extract<DaemonToRelayMessage, { type: "reply-status" }>;

/**
 * The device the hook is told decided when the decision does not name it (a device of an older version, or one that
 * does not know its own name). The relay, which knows who sent it, cannot be believed about it; a device's own name,
 * sealed with its decision, can.
 */
const DECIDED_ON = "a paired device";

/** The name a decision carries, without control or format characters (the hook prints it), else `DECIDED_ON`. */
function decidedOn(deviceName: string | undefined): string {
  return deviceName?.replace(/[\p{Cc}\p{Cf}]/gu, "").trim() || DECIDED_ON;
}

/**
 * Settled decisions remembered, so a resend after a reconnect gets its status again rather than a refusal. Only the
 * very same message (reply id, event id and ciphertext) gets it: anything else under a known reply id is checked anew.
 */
const SETTLED_KEPT = 1000;

export interface PermissionDecisionsOptions {
  pendingAsks: PendingAsks;
  guard: ReplayGuard;
  key(): E2eKey;
  computerId(): string | undefined;
  /** Tells the relay how a decision ended (the reply's status). */
  report(status: LinkReplyStatus): void;
  log: Logger;
  now?: () => Date;
  lastSealedMessage?: LastSealedMessageFile;
}

/**
 * Takes the replies to "needs you" calls as decisions: the first valid one answers its waiting hook and settles
 * `delivered`; every other settles `failed` with its reason. Nothing here answers a hook but a valid decision.
 */
export class PermissionDecisions {
  readonly #options: PermissionDecisionsOptions;
  readonly #settled = new Map<string, LinkReplyStatus>();
  readonly #arriving = new Set<string>();
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: PermissionDecisionsOptions) {
    this.#options = options;
  }

  /** Takes one decision from the relay; resolves once its status is sent (or a resend is ignored). */
  handle(message: LinkReply): Promise<void> {
    const work = this.#handle(message).catch((error: unknown) => {
      this.#options.log(
        `decision ${message.replyId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    this.#inFlight.add(work);
    void work.finally(() => this.#inFlight.delete(work));
    return work;
  }

  async stop(): Promise<void> {
    await Promise.all(this.#inFlight);
  }

  async #handle(message: LinkReply): Promise<void> {
    const { replyId, eventId } = message;
    const identity = messageIdentity(message);
    const settled = this.#settled.get(identity);
    if (settled) {
      this.#options.report(settled);
      return;
    }
    if (this.#arriving.has(identity)) return;
    this.#arriving.add(identity);
    try {
      const now = this.#options.now ?? (() => new Date());
      const check = await checkDecision(message, {
        ...this.#options,
        key: this.#options.key(),
        computerId: this.#options.computerId(),
        now,
      });
      this.#options.lastSealedMessage?.record("reply", message.sealed, check.isOpened, now());
      if (check.kind === "refused") {
        this.#options.log(`decision ${replyId} for ${eventId} refused: ${check.reason}`);
        await this.#settle(message, { reason: check.reason, isPlaintextReason: check.isPlaintextReason });
        return;
      }
      const { verdict, reason, deviceName } = check.decision;
      const isDecided = this.#options.pendingAsks.decide(eventId, {
        outcome: "decided",
        verdict,
        reason: verdict === "deny" ? reason : null,
        decidedOn: decidedOn(deviceName),
      });
      if (!isDecided) {
        // The ask ended while the stamp was being written: another decision won, or the hook stopped waiting.
        const reason =
          this.#options.pendingAsks.ended(eventId) === "decided"
            ? DECISION_REFUSALS.alreadyDecided
            : DECISION_REFUSALS.stoppedWaiting;
        this.#options.log(`decision ${replyId} for ${eventId} came too late: ${reason}`);
        await this.#settle(message, { reason, isPlaintextReason: false });
        return;
      }
      this.#options.log(`${eventId}: ${verdict === "allow" ? "allowed" : "denied"} (decision ${replyId})`);
      await this.#settle(message, null);
    } finally {
      this.#arriving.delete(identity);
    }
  }

  /** Sends the status (`null`: delivered) and keeps it for resends. */
  async #settle(
    message: LinkReply,
    failure: { reason: string; isPlaintextReason: boolean } | null,
  ): Promise<void> {
    const { replyId } = message;
    let status: LinkReplyStatus;
    if (!failure) status = { type: "reply-status", replyId, status: "delivered" };
    else if (failure.isPlaintextReason) {
      status = { type: "reply-status", replyId, status: "failed", plaintextReason: failure.reason };
    } else {
      const sealedReason = await sealJson(this.#options.key(), aad.replyError(replyId), {
        reason: failure.reason,
      });
      status = { type: "reply-status", replyId, status: "failed", sealedReason };
    }
    this.#settled.set(messageIdentity(message), status);
    if (this.#settled.size > SETTLED_KEPT) {
      const oldest = this.#settled.keys().next().value;
      if (oldest !== undefined) this.#settled.delete(oldest);
    }
    this.#options.report(status);
  }
}

/** One message as the relay passes it on; its ciphertext by digest, so a large one costs nothing to keep. */
function messageIdentity(message: LinkReply): string {
  const sealedDigest = createHash("sha256").update(message.sealed, "utf8").digest("hex");
  return `${message.replyId}\n${message.eventId}\n${sealedDigest}`;
}
