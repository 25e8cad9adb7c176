/**
 * Every number in the service specification's Limits table, plus the defaults the spec names.
 * Import these; a bare number for any of them elsewhere in the tree is a bug.
 */

const KIB = 1024;
const MIB = 1024 * KIB;
const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** Issue references per `POST /tracker/issues`. */
export const ISSUE_REFERENCES_MAX = 100;
/** Issues returned by `POST /tracker/dispatch/issues`. */
export const DISPATCH_ISSUES_MAX = 50;
/** Dispatch records kept in `dispatches.json` and returned by `GET /tracker/dispatches`. */
export const DISPATCH_RECORDS_MAX = 100;
/** One image per upload, at most this many bytes after base64 decoding. */
export const UPLOAD_IMAGE_MAX_BYTES = 100 * MIB;
/** Request body of `POST /tracker/uploads` (base64 inflates the image by a third). */
export const UPLOAD_BODY_MAX_BYTES = 140 * MIB;
/** Characters of the user's own words in a dispatch. */
export const DISPATCH_WORDS_MAX = 8000;
/** `POST /report` body: "about 0.8 MB". */
export const REPORT_BODY_MAX_BYTES = 800 * KIB;
/** The largest `POST /agent-activity` body the daemon reads (a turn's start: agent, session, cwd). */
export const AGENT_ACTIVITY_BODY_MAX_BYTES = 8 * KIB;
/** The hook's whole budget, from reading stdin to the daemon's answer. */
export const HOOK_TIMEOUT_MS = 5 * SECOND_MS;
/** What a brief usually takes; informational, not enforced. */
export const BRIEF_GENERATION_TYPICAL_MS = { min: 5 * SECOND_MS, max: 60 * SECOND_MS } as const;
/** Briefs generated at the same time by one daemon. */
export const CONCURRENT_BRIEF_GENERATIONS = 3;
// The model call's limits depend on where the model runs: MODEL_CALL_LIMITS_DEFAULT_MS in model-endpoint.ts.
/** Outbox send retry: exponential from this... */
export const OUTBOX_SEND_RETRY_INITIAL_MS = SECOND_MS;
/** ...to at most this. */
export const OUTBOX_SEND_RETRY_MAX_MS = 5 * MINUTE_MS;
/** Delays before the three retries of a tracker read. Writes are never retried. */
export const TRACKER_READ_RETRY_DELAYS_MS = [500, 1000, 2000] as const;
/** The spoken paragraph may be at most this share of the original's length... */
export const SPOKEN_PARAGRAPH_MAX_RATIO = 0.6;
/** ...when the original has at least this many characters. */
export const SPOKEN_RATIO_MIN_ORIGINAL_CHARS = 300;
/** Rewrites of a brief when a critical fact is missing or the spoken part is too long. */
export const BRIEF_REWRITES_MAX = 1;
/** Code points of an encryption passphrase after NFC normalisation. */
export const PASSPHRASE_MIN_CHARS = 12;
/** PBKDF2-SHA256 iterations for passphrase keys. */
export const PBKDF2_ITERATIONS = 600_000;
/** End-to-end key size. */
export const E2E_KEY_BYTES = 32;
/** AES-GCM IV size. */
export const E2E_IV_BYTES = 12;
/** Answered call ids a device keeps. */
export const ANSWERED_IDS_MAX = 200;
/** Call records a device keeps. */
export const CALL_RECORDS_MAX = 100;
/** A device that learns of a report later than this after it was raised records it as missed. */
export const LATE_CALL_THRESHOLD_MS = 2 * MINUTE_MS;
/** How far ahead the ring schedule is evaluated. */
export const RING_SCHEDULE_LOOKAHEAD_MS = 7 * DAY_MS;
/** A user ringtone file. */
export const RINGTONE_FILE_MAX_BYTES = 10 * MIB;
/** Images above this size are converted to JPEG before upload. */
export const IMAGE_CONVERSION_MAX_BYTES = 1.5 * MIB;
/** Images with a long edge above this are converted, and converted images get this long edge. */
export const IMAGE_CONVERSION_MAX_EDGE_PX = 2048;
/** The client asks whether a dispatched issue exists this often. */
export const DISPATCH_CREATION_POLL_MS = 3 * SECOND_MS;
/** The client re-reads projects and agents this often. */
export const DISPATCH_OPTIONS_POLL_MS = 10 * SECOND_MS;
/** The client retries `PUT /brief/language` this often while the daemon is unreachable. */
export const BRIEF_LANGUAGE_RETRY_MS = 30 * SECOND_MS;
/** A dispatch whose task completed without an issue becomes failed after this. */
export const DISPATCH_COMPLETED_WITHOUT_ISSUE_MS = MINUTE_MS;

/** Default daemon port (`localPort` in daemon.json). */
export const DEFAULT_LOCAL_PORT = 8790;
/** Default relay port. */
export const DEFAULT_RELAY_PORT = 8787;

/** A reply resuming an agent is stopped and reported failed after this. */
export const REPLY_RUN_TIMEOUT_MS = 60 * MINUTE_MS;
/** Characters of an agent's stderr kept as the failure reason of a reply. */
export const REPLY_STDERR_TAIL_CHARS = 1000;
/** Replies the daemon has not picked up expire after this. */
export const REPLY_EXPIRY_MS = DAY_MS;
/**
 * Digits of a pairing code: a trillion codes, so guessing is hopeless within the relay's per-address limits (no
 * wrong guess can burn anyone's code). Typed in groups (`1234 5678 9012`); a link or QR code carries it for you.
 */
export const PAIRING_CODE_DIGITS = 12;
/** A pairing code is valid this long, once. */
export const PAIRING_CODE_TTL_MS = 10 * MINUTE_MS;

/** Call-waiting tone default: 450 Hz, 1 s on, 4 s off. */
export const CALL_WAITING_TONE = { frequencyHz: 450, onMs: SECOND_MS, offMs: 4 * SECOND_MS } as const;
/** Characters of a reply after hang-up (decided here: a spoken or typed answer, not a document). */
export const REPLY_TEXT_MAX_CHARS = 20_000;

/**
 * How long a permission hook waits for an answer from a phone before it steps aside (the agent's own dialog or
 * refusal follows). Claude Code's and Codex's hook timeouts are set above it by the installer.
 */
export const PERMISSION_WAIT_MS = 5 * MINUTE_MS;
/** The hook timeout the installer writes into the agents' configs for the permission hook, in seconds. */
export const PERMISSION_HOOK_TIMEOUT_SECONDS = 330;
/** Characters of a deny reason passed back to the agent. */
export const PERMISSION_REASON_MAX_CHARS = 2000;
