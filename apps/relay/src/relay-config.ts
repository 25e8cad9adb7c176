import {
  PUSH_POLL_DEFAULT_MS,
  RELAY_LINK_PING_MS,
  RELAY_SETTINGS_TIMEOUT_MS,
  RELAY_SSE_HEARTBEAT_MS,
  REPLY_EXPIRY_MS,
} from "@ringback/protocol";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** A call nobody answers is expired (and erased) after this; an answered one after this much from its answer. */
export const CALL_EXPIRY_DEFAULT_MS = DAY_MS;
/** The `retry:` hint of the SSE stream: how soon a client reconnects after a drop. */
const SSE_RETRY_DEFAULT_MS = 2 * SECOND_MS;
/** A stream is closed after this, so no proxy or half-open socket keeps one forever; clients resume by seq. */
const SSE_STREAM_MAX_DEFAULT_MS = HOUR_MS;
/** How often expired calls and replies are swept. */
const SWEEP_INTERVAL_DEFAULT_MS = 10 * SECOND_MS;
/** Ended calls and the stream log are kept this long, so a late retry of an event stays idempotent. */
const EVENT_RECORD_RETENTION_MS = 30 * DAY_MS;
/**
 * Failed pairing-code (and claim-code) attempts allowed per client address (an IPv6 client's /64) per window...
 */
const CODE_FAILURES_MAX = 10;
/** ...and the window. Successful redemptions never count. */
const CODE_FAILURE_WINDOW_MS = 10 * MINUTE_MS;
/** Failed attempts allowed per client address (IPv6: /64) per day: a person never mistypes this many codes. */
const CODE_FAILURES_DAILY_MAX = 50;
/** Open SSE streams one device may hold; a new one closes the oldest beyond it. */
const STREAMS_PER_DEVICE_MAX = 4;
/**
 * Live devices one account may have (a phone, a tablet, two computers and their browsers are far below): a device
 * token cannot mint devices without end by making pairing codes and redeeming them itself.
 */
export const DEVICES_PER_ACCOUNT_MAX = 20;
/** Devices that may join one account per window (removing devices to make room does not reset it)... */
export const PAIRINGS_PER_ACCOUNT_MAX = 10;
/** ...and the window. */
const PAIRING_WINDOW_MS = HOUR_MS;
/** Open SSE streams of one account on one relay process; a new one closes the account's oldest beyond it. */
export const STREAMS_PER_ACCOUNT_MAX = 32;
/**
 * Open SSE streams from one client address (IPv6: /64) on one relay process, whatever their accounts; beyond it a
 * new stream is refused (429) until one closes.
 */
export const STREAMS_PER_ADDRESS_MAX = 64;
/**
 * Open connections one client address (IPv6: /64) may hold besides its streams (its requests, keep-alive sockets, a
 * daemon link): beyond its streams' limit plus these, a new connection is closed at once, so one address cannot
 * hold thousands of half-open connections. It follows `--streams-per-address`: an address allowed more streams
 * needs the connections to hold them.
 */
export const CONNECTIONS_BESIDE_STREAMS_PER_ADDRESS = 64;
/**
 * Accounts one client address (IPv6: its /64) may create per window with open signup (a household behind one address
 * signs up a few people); its day and its address block allow a multiple of it (runtime/signup-limits.ts), so nine
 * accounts from one address, enough to take every one of the relay's shared push sends, take days...
 */
export const SIGNUPS_PER_ADDRESS_MAX = 3;
/** ...and the window. */
const SIGNUP_WINDOW_MS = HOUR_MS;
const MIB = 1024 * 1024;
/**
 * Reports (events and tracker reports) one computer may store per window: a daemon's outbox emptying after a day
 * offline stays under it, and beyond it the daemon is told to wait (429 with `Retry-After`), losing nothing...
 */
const EVENTS_PER_DEVICE_MAX = 1200;
/** ...and the window. */
const EVENT_WINDOW_MS = 10 * MINUTE_MS;
/** Calls one account may have holding ciphertext at once (ringing or answered, for up to the call expiry)... */
const OPEN_CALLS_PER_ACCOUNT_MAX = 2000;
/**
 * ...and the bytes of ciphertext it holds, its open calls' and its queued replies' together: beyond either, a new
 * report is 507 `storage_full` with `Retry-After`.
 */
const SEALED_BYTES_PER_ACCOUNT_MAX = 256 * MIB;
/**
 * Replies one account may have queued at once (waiting, up to the reply expiry, for a computer that is offline):
 * beyond it, or beyond the account's sealed bytes, a new reply is 507 `storage_full` with `Retry-After`. A person
 * answering calls of an offline computer for a whole day writes a few dozen; 500 of the largest (256 KiB) are
 * 125 MiB, inside the bytes quota.
 */
const QUEUED_REPLIES_PER_ACCOUNT_MAX = 500;
/** How soon a report or reply refused for the account's quota may be sent again (calls and replies settle meanwhile). */
export const QUOTA_RETRY_AFTER_MS = MINUTE_MS;
/**
 * Request bodies held at once (counted before they are read): per device (two settings bodies), per client address,
 * and in all; beyond them a request is 503 `relay_unavailable` with `Retry-After` before its body is read.
 */
const BODY_BYTES_IN_FLIGHT_PER_DEVICE = 8 * MIB;
const BODY_BYTES_IN_FLIGHT_PER_ADDRESS = 16 * MIB;
const BODY_BYTES_IN_FLIGHT_TOTAL = 128 * MIB;
/** Free bytes the data directory's disk keeps: below, writes that store data are refused (507 `storage_full`). */
const DISK_FREE_MIN_BYTES = 256 * MIB;
/** How often the disk's free space is read. */
const DISK_CHECK_INTERVAL_DEFAULT_MS = 5 * SECOND_MS;

/** `lastSeenAt` is written at most this often per device. */
export const LAST_SEEN_WRITE_INTERVAL_MS = MINUTE_MS;

/**
 * RFC 8292 `sub` of the relay's VAPID token: how a push service's operator reaches the relay's. A self-hosted relay
 * should set its own (`--push-subject`); Apple's push service refuses `localhost` contacts.
 */
const PUSH_SUBJECT_DEFAULT = "mailto:ringback-relay@example.org";

/**
 * A push service that has not finished the TCP and TLS handshakes within this long is treated like a 5xx (retried):
 * a reachable push service does both in well under a second, and a silent one must not hold a send for long.
 */
export const PUSH_CONNECT_TIMEOUT_MS = 5 * SECOND_MS;
/** Once connected, a push service that has not answered (status and body) within this long is treated like a 5xx. */
export const PUSH_ANSWER_TIMEOUT_MS = 15 * SECOND_MS;

/**
 * The browsers' push services (each host and its subdomains): Chrome's, Firefox's, Edge's and Safari's. A device
 * may only subscribe with an endpoint there (port 443, no user, a plain host name), and the relay connects only to
 * a public address that name resolves to at that moment, so no paired device can make the relay send requests into
 * its own network (`--push-hosts` changes the list).
 */
const PUSH_HOSTS_DEFAULT: readonly string[] = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "push.services.mozilla.com",
  "notify.windows.com",
  "push.apple.com",
];

export interface RelayConfig {
  /** Anyone may create an account (no claim code). */
  readonly openSignup: boolean;
  /** Trust `X-Forwarded-For` for the client address. */
  readonly behindProxy: boolean;
  /** Static files (the web app) served at `/` with a fallback to index.html; null: none. */
  readonly webRoot: string | null;
  /**
   * Origins besides the relay itself the served web app may connect to (its Content-Security-Policy's
   * `connect-src`): a language model or speech endpoint the devices use. Default none.
   */
  readonly webConnectOrigins: readonly string[];
  /** The origin people and devices reach the relay at (`--public-url`), for pairing links; null: the one they used. */
  readonly publicUrl: string | null;
  readonly callExpiryMs: number;
  readonly replyExpiryMs: number;
  readonly heartbeatMs: number;
  readonly sseRetryMs: number;
  readonly streamMaxMs: number;
  readonly linkPingMs: number;
  readonly settingsTimeoutMs: number;
  readonly sweepIntervalMs: number;
  readonly retentionMs: number;
  readonly codeFailuresMax: number;
  readonly codeFailureWindowMs: number;
  readonly codeFailuresDailyMax: number;
  readonly streamsPerDeviceMax: number;
  readonly devicesPerAccountMax: number;
  readonly pairingsPerAccountMax: number;
  readonly pairingWindowMs: number;
  readonly streamsPerAccountMax: number;
  readonly streamsPerAddressMax: number;
  /** Connections per client address beyond `streamsPerAddressMax` (direct connections only, not behind a proxy). */
  readonly connectionsBesideStreamsPerAddress: number;
  readonly eventsPerDeviceMax: number;
  readonly eventWindowMs: number;
  readonly openCallsPerAccountMax: number;
  readonly sealedBytesPerAccountMax: number;
  readonly queuedRepliesPerAccountMax: number;
  readonly bodyBytesInFlightPerDevice: number;
  readonly bodyBytesInFlightPerAddress: number;
  readonly bodyBytesInFlightTotal: number;
  readonly diskFreeMinBytes: number;
  readonly diskCheckIntervalMs: number;
  /** Sign-ups per address and window; the day's and the address block's allowances are multiples of it. */
  readonly signupsPerAddressMax: number;
  readonly signupWindowMs: number;
  /** The VAPID contact (`mailto:` or `https:`). */
  readonly pushSubject: string;
  /** How often due pushes (repeats, retries) are looked for. */
  readonly pushPollMs: number;
  readonly pushConnectTimeoutMs: number;
  readonly pushAnswerTimeoutMs: number;
  /** Hosts (with their subdomains) a push endpoint may name (port 443, public addresses only). */
  readonly pushHosts: readonly string[];
  /**
   * Exact origins (`https://host:port`) a push endpoint may name with any port and address: a test push service on
   * loopback, or a push service inside the operator's own network. Default none.
   */
  readonly pushTrustedOrigins: readonly string[];
}

export const DEFAULT_RELAY_CONFIG: RelayConfig = {
  openSignup: false,
  behindProxy: false,
  webRoot: null,
  webConnectOrigins: [],
  publicUrl: null,
  callExpiryMs: CALL_EXPIRY_DEFAULT_MS,
  replyExpiryMs: REPLY_EXPIRY_MS,
  heartbeatMs: RELAY_SSE_HEARTBEAT_MS,
  sseRetryMs: SSE_RETRY_DEFAULT_MS,
  streamMaxMs: SSE_STREAM_MAX_DEFAULT_MS,
  linkPingMs: RELAY_LINK_PING_MS,
  settingsTimeoutMs: RELAY_SETTINGS_TIMEOUT_MS,
  sweepIntervalMs: SWEEP_INTERVAL_DEFAULT_MS,
  retentionMs: EVENT_RECORD_RETENTION_MS,
  codeFailuresMax: CODE_FAILURES_MAX,
  codeFailureWindowMs: CODE_FAILURE_WINDOW_MS,
  codeFailuresDailyMax: CODE_FAILURES_DAILY_MAX,
  streamsPerDeviceMax: STREAMS_PER_DEVICE_MAX,
  devicesPerAccountMax: DEVICES_PER_ACCOUNT_MAX,
  pairingsPerAccountMax: PAIRINGS_PER_ACCOUNT_MAX,
  pairingWindowMs: PAIRING_WINDOW_MS,
  streamsPerAccountMax: STREAMS_PER_ACCOUNT_MAX,
  streamsPerAddressMax: STREAMS_PER_ADDRESS_MAX,
  connectionsBesideStreamsPerAddress: CONNECTIONS_BESIDE_STREAMS_PER_ADDRESS,
  eventsPerDeviceMax: EVENTS_PER_DEVICE_MAX,
  eventWindowMs: EVENT_WINDOW_MS,
  openCallsPerAccountMax: OPEN_CALLS_PER_ACCOUNT_MAX,
  sealedBytesPerAccountMax: SEALED_BYTES_PER_ACCOUNT_MAX,
  queuedRepliesPerAccountMax: QUEUED_REPLIES_PER_ACCOUNT_MAX,
  bodyBytesInFlightPerDevice: BODY_BYTES_IN_FLIGHT_PER_DEVICE,
  bodyBytesInFlightPerAddress: BODY_BYTES_IN_FLIGHT_PER_ADDRESS,
  bodyBytesInFlightTotal: BODY_BYTES_IN_FLIGHT_TOTAL,
  diskFreeMinBytes: DISK_FREE_MIN_BYTES,
  diskCheckIntervalMs: DISK_CHECK_INTERVAL_DEFAULT_MS,
  signupsPerAddressMax: SIGNUPS_PER_ADDRESS_MAX,
  signupWindowMs: SIGNUP_WINDOW_MS,
  pushSubject: PUSH_SUBJECT_DEFAULT,
  pushPollMs: PUSH_POLL_DEFAULT_MS,
  pushHosts: PUSH_HOSTS_DEFAULT,
  pushTrustedOrigins: [],
  pushConnectTimeoutMs: PUSH_CONNECT_TIMEOUT_MS,
  pushAnswerTimeoutMs: PUSH_ANSWER_TIMEOUT_MS,
};
