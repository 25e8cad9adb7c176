/**
 * Copies of `@ringback/protocol` constants. The hook cannot import protocol at run time (it has zero
 * dependencies and protocol pulls in zod), so the values are copied here; test/protocol-constants.test.ts
 * asserts each one equals protocol's, so a change there fails the build here instead of drifting.
 */

/** Protocol's `HOOK_TIMEOUT_MS`: the hook's whole budget, from reading stdin to the daemon's answer. */
export const HOOK_TIMEOUT_MS = 5_000;

/** Protocol's `DEFAULT_LOCAL_PORT`: the daemon's port when daemon.json names none. */
export const DEFAULT_LOCAL_PORT = 8790;

/** Protocol's `REPORT_BODY_MAX_BYTES`: the largest `POST /report` body the daemon accepts. */
export const REPORT_BODY_MAX_BYTES = 800 * 1024;

/** Protocol's `PERMISSION_WAIT_MS`: how long the daemon holds a permission request for a decision. */
export const PERMISSION_WAIT_MS = 5 * 60_000;

// PERMISSION_HOOK_TIMEOUT_SECONDS, which only the installer uses, is copied in installer/protocol-constants.ts: a
// module both the hook and the installer imported would become a chunk of its own, and the hook would no longer
// be one file.

/** Protocol's `PERMISSION_REASON_MAX_CHARS`: the longest deny reason the daemon passes back. */
export const PERMISSION_REASON_MAX_CHARS = 2000;

/** Protocol's `LOCAL_REQUEST_PROOF_HEADER`: the header of a request signed with the local key (the key stays here). */
export const LOCAL_REQUEST_PROOF_HEADER = "ringback-request-proof";

/** Protocol's `LOCAL_ANSWER_PROOF_HEADER`: the header by which the daemon proves its answer. */
export const LOCAL_ANSWER_PROOF_HEADER = "ringback-answer-proof";

/** Protocol's `LOCAL_PROOF_VERSION`: the prefix of both headers' values. */
export const LOCAL_PROOF_VERSION = "v1";

/** Protocol's `LOCAL_PROOF_REQUEST_LABEL`: the first line of what a request's proof covers. */
export const LOCAL_PROOF_REQUEST_LABEL = "ringback/local-proof/v1/request";

/** Protocol's `LOCAL_PROOF_ANSWER_LABEL`: the first line of what an answer's proof covers. */
export const LOCAL_PROOF_ANSWER_LABEL = "ringback/local-proof/v1/answer";
