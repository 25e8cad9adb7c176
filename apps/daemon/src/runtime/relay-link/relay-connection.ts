import type { AcceptResult } from "@ringback/outbox";
import type {
  LocalLoginRequest,
  LocalLoginResult,
  PairingResult,
  RelayLinkStatus,
  RelayToDaemonMessage,
  Report,
} from "@ringback/protocol";
import { isNeedsYouEventId } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import type { SessionsFile } from "../files/sessions-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import { LastSealedMessageFile } from "../keys/last-sealed-message.js";
import type { Logger } from "../logger.js";
import type { PendingAsks } from "../needs-you/pending-asks.js";
import { PermissionDecisions } from "../needs-you/permission-decisions.js";
import { relayAddress } from "../relay-address.js";
import { ReplayGuard } from "../replay-guard.js";
import { EventSessions } from "../replies/event-sessions.js";
import { RepliesFile } from "../replies/replies-file.js";
import { type QuestionReplies, ReplyRunner } from "../replies/reply-runner.js";
import { KeyRotationFollower } from "./key-rotation-follower.js";
import { loginToRelay } from "./login.js";
import { createPairing } from "./pairing.js";
import { RelayLink, type RelayLinkOptions } from "./relay-link.js";
import { answerSettingsRequest, type LocalInterface } from "./settings-request.js";

export interface RelayConnectionOptions {
  dataDir: string;
  config: ConfigFile;
  env: NodeJS.ProcessEnv;
  log: Logger;
  sessions: SessionsFile;
  /** The "needs you" asks whose hooks wait: a reply to one of their calls is a decision. */
  pendingAsks: PendingAsks;
  /** Tests shorten the reply run limit (REPLY_RUN_TIMEOUT_MS) and the link's reconnect waits. */
  replyRunTimeoutMs?: number;
  reconnectDelayMs?: RelayLinkOptions["reconnectDelayMs"];
}

/** The local interface the relayed settings requests run through, once the daemon listens. */
export interface LocalInterfaceAccess {
  app: LocalInterface;
  localKey: string;
  port(): number;
}

/**
 * This computer's side of the relay: its identity, the link (relayed settings requests and replies), and the
 * files replies need. `start` opens the link when daemon.json holds an identity; `login` switches to a new one.
 */
export class RelayConnection {
  readonly #options: RelayConnectionOptions;
  readonly #eventSessions: EventSessions;
  readonly #replies: ReplyRunner;
  readonly #decisions: PermissionDecisions;
  readonly #lastSealedMessage: LastSealedMessageFile;
  readonly #guard: ReplayGuard;
  /** What a login through the running daemon sets going (the outbox's sending); none: a restart is needed. */
  #afterLogin: (() => void) | null = null;
  readonly #linkOpenListeners: (() => void)[] = [];
  #localInterface: LocalInterfaceAccess | null = null;
  #questionReplies: QuestionReplies | null = null;
  #link: RelayLink | null = null;

  private constructor(
    options: RelayConnectionOptions,
    eventSessions: EventSessions,
    replies: RepliesFile,
    lastSealedMessage: LastSealedMessageFile,
    guard: ReplayGuard,
  ) {
    this.#options = options;
    this.#eventSessions = eventSessions;
    this.#lastSealedMessage = lastSealedMessage;
    this.#guard = guard;
    this.#replies = new ReplyRunner({
      replies,
      eventSessions,
      sessions: options.sessions,
      key: () => currentE2eKey(options.config),
      computerId: () => options.config.config.relay?.deviceId,
      guard,
      env: options.env,
      log: options.log,
      report: (status) => {
        this.#link?.send(status);
      },
      runTimeoutMs: options.replyRunTimeoutMs,
      lastSealedMessage,
      questionReplies: () => this.#questionReplies,
    });
    this.#decisions = new PermissionDecisions({
      pendingAsks: options.pendingAsks,
      guard,
      key: () => currentE2eKey(options.config),
      computerId: () => options.config.config.relay?.deviceId,
      report: (status) => {
        this.#link?.send(status);
      },
      log: options.log,
      lastSealedMessage,
    });
  }

  /**
   * Reads the replies, event-session, last-sealed-message and seen-requests files (replies cut short by the last
   * stop are marked failed).
   */
  static async load(options: RelayConnectionOptions): Promise<RelayConnection> {
    const replies = await RepliesFile.load(options.dataDir, options.log, new Date());
    const eventSessions = await EventSessions.load(options.dataDir, options.log);
    const lastSealedMessage = await LastSealedMessageFile.load(options.dataDir, options.log);
    const guard = await ReplayGuard.load(options.dataDir, options.log);
    return new RelayConnection(options, eventSessions, replies, lastSealedMessage, guard);
  }

  /** The outbox as the report route sees it: every local agent report is remembered for its replies. */
  rememberingReports<Outbox extends { enqueue(report: Report): Promise<AcceptResult> }>(outbox: Outbox) {
    return {
      enqueue: (report: Report) => {
        this.#eventSessions.remember(report);
        return outbox.enqueue(report);
      },
    };
  }

  /** Opens the link when this computer has a relay identity; relayed settings requests run through `access`. */
  start(access: LocalInterfaceAccess): void {
    this.#localInterface = access;
    this.#openLink();
  }

  /** Replies to tracker question calls go to `replies` (the tracker runtime starts after this connection). */
  answerTrackerQuestionsWith(replies: QuestionReplies): void {
    this.#questionReplies = replies;
  }

  /** `listener` runs after every login through the running daemon, once the new identity is written. */
  afterLogin(listener: () => void): void {
    this.#afterLogin = listener;
  }

  /** `listener` runs each time the link to the relay opens (first time and after every reconnect). */
  onLinkOpen(listener: () => void): void {
    this.#linkOpenListeners.push(listener);
  }

  /** `ringback login` through the running daemon: writes the identity, then reopens the link with it. */
  async login(request: LocalLoginRequest): Promise<LocalLoginResult> {
    const result = await loginToRelay(this.#options.config, request, {
      env: this.#options.env,
      now: new Date(),
      log: this.#options.log,
    });
    this.#options.log(
      `logged in to ${result.serverUrl}: account ${result.accountId}, this computer is ${result.deviceId}`,
    );
    await this.#link?.stop();
    this.#link = null;
    if (this.#localInterface) this.#openLink();
    this.#afterLogin?.();
    return { ...result, needsRestart: this.#afterLogin === null };
  }

  /** The relay's address in use (RINGBACK_SERVER_URL over daemon.json); null when none is set. */
  get serverUrl(): string | null {
    return relayAddress(this.#options.config, this.#options.env)?.serverUrl ?? null;
  }

  /** The link to the relay now; `not-logged-in` without a relay identity. */
  get linkState(): RelayLinkStatus {
    if (this.#link) return this.#link.state;
    return relayAddress(this.#options.config, this.#options.env)?.deviceToken ? "stopped" : "not-logged-in";
  }

  /** `ringback pair` / `POST /local/pairing`. */
  createPairing(): Promise<PairingResult> {
    return createPairing(this.#options.config, this.#options.env);
  }

  /** Stops running replies (reported failed while the link is still up), closes the link, flushes the files. */
  async stop(): Promise<void> {
    await this.#replies.stop();
    await this.#decisions.stop();
    await this.#link?.stop();
    this.#link = null;
    await this.#eventSessions.flush();
    await this.#lastSealedMessage.flush();
  }

  #openLink(): void {
    const { config, env, log } = this.#options;
    const relay = relayAddress(config, env);
    if (!relay?.deviceToken) {
      log("no relay identity (ringback login): replies and relayed settings wait until there is one");
      return;
    }
    const { serverUrl, deviceToken } = relay;
    // What the relay sends right after a (re)connect (queued replies, decisions) waits until the key's rotations are
    // followed: a computer that was off during a removal must not take the removed device's old key first.
    const follower = new KeyRotationFollower({ config, log, serverUrl, deviceToken });
    let keyFollowed: Promise<void> = Promise.resolve();
    const link = new RelayLink({
      serverUrl,
      deviceToken,
      log,
      reconnectDelayMs: this.#options.reconnectDelayMs,
      onMessage: (message) => {
        void keyFollowed
          .then(() => follower.followIfSealedUnderAnotherKey(message.sealed))
          .catch(() => undefined)
          .then(() => this.#receive(link, message));
      },
      onOpen: () => {
        keyFollowed = follower.follow();
        for (const listener of this.#linkOpenListeners) listener();
      },
    });
    this.#link = link;
    link.start();
  }

  #receive(link: RelayLink, message: RelayToDaemonMessage): void {
    if (message.type === "reply" && isNeedsYouEventId(message.eventId)) {
      // A reply to a "needs you" call is a decision: it never resumes an agent with its text.
      void this.#decisions.handle(message);
      return;
    }
    if (message.type === "reply") {
      void this.#replies.handle(message);
      return;
    }
    void this.#answerSettings(link, message);
  }

  async #answerSettings(
    link: RelayLink,
    message: Parameters<typeof answerSettingsRequest>[0],
  ): Promise<void> {
    const access = this.#localInterface;
    const computerId = this.#options.config.config.relay?.deviceId;
    if (!access || !computerId) return;
    try {
      const answer = await answerSettingsRequest(message, {
        key: currentE2eKey(this.#options.config),
        computerId,
        guard: this.#guard,
        app: access.app,
        localKey: access.localKey,
        port: access.port(),
        lastSealedMessage: this.#lastSealedMessage,
      });
      link.send(answer);
    } catch (error) {
      this.#options.log(
        `relayed settings request ${message.requestId} failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
