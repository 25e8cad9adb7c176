/**
 * Every error code with its HTTP status. The spec's Errors table first, then the codes the spec leaves
 * open and this project decided (see the package README). A code without a status does not compile.
 */
export const ERROR_STATUS = {
  // The spec's Errors table.
  not_relayed: 403,
  undecryptable_request: 400,
  invalid_tracker_token: 422,
  tracker_not_configured: 422,
  workspace_not_found: 422,
  invalid_dispatch: 400,
  agent_unavailable: 422,
  project_not_found: 422,
  agent_not_found: 422,
  issue_not_found: 422,
  dispatch_not_found: 422,
  invalid_llm_settings: 422,
  llm_key_required: 422,
  invalid_language: 422,
  passphrase_too_short: 422,
  invalid_key: 422,
  duplicate_task: 409,
  // Decided here: the local interface's own guards.
  unauthorized: 401,
  invalid_host: 403,
  origin_not_allowed: 403,
  unsupported_media_type: 415,
  payload_too_large: 413,
  invalid_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  rate_limited: 429,
  internal_error: 500,
  storage_full: 507,
  // Decided here: tracker and relay conditions.
  tracker_unavailable: 502,
  computer_offline: 503,
  computer_timeout: 504,
  relay_unavailable: 503,
  claim_code_required: 403,
  invalid_pairing_code: 422,
  device_removed: 401,
  call_already_answered: 409,
  call_not_found: 404,
  device_limit: 403,
  computer_only: 403,
  // Decided here: sealed requests a computer refuses as possible replays.
  replayed_request: 409,
  stale_request: 422,
  // Decided here: a passphrase key is salted with the account, so it needs one.
  account_required: 409,
  // Decided here: what a device may not make the computer do.
  model_address_refused: 403,
  device_mismatch: 403,
  // Decided here: two devices rotated the account's key from the same key at once; the later one follows the first.
  key_rotation_conflict: 409,
  // Decided here: the escalation ladder's channels.
  invalid_escalation_settings: 422,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** A sentence per code, used when a caller gives no message and in the README's error list. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  not_relayed: "Local-only path (/e2e/*, /local/*) called through the relay.",
  undecryptable_request: "The phone's end-to-end key differs from the computer's.",
  invalid_tracker_token: "The tracker token is invalid.",
  tracker_not_configured: "No tracker token is saved.",
  workspace_not_found: "The workspace was not found with this token.",
  invalid_dispatch:
    "The upload is not an image or exceeds 100 MB, the dispatch has neither words nor images, or the words exceed 8000 characters.",
  agent_unavailable: "The agent cannot run; the message carries the tracker's reason.",
  project_not_found: "The project does not exist.",
  agent_not_found: "The agent does not exist.",
  issue_not_found: "The target issue of a comment dispatch does not exist.",
  dispatch_not_found: "No dispatch record has this id.",
  invalid_llm_settings: "The language-model settings are invalid.",
  llm_key_required: "A language-model key is required and none is saved or given.",
  invalid_language: "The language is not a BCP 47 language-region tag.",
  passphrase_too_short: "The passphrase has fewer than 12 characters.",
  invalid_key: "The key is not in the rbk1_ format.",
  duplicate_task: "Another computer already reported this tracker task.",
  unauthorized: "The local API key (Authorization: Bearer) is missing or wrong.",
  invalid_host: "The Host header is not a loopback address with a port.",
  origin_not_allowed: "Requests carrying an Origin header (web pages) are refused.",
  unsupported_media_type: "The Content-Type must be application/json.",
  payload_too_large: "The request body is over the limit.",
  invalid_request: "The request body does not match the expected shape.",
  not_found: "No such path.",
  method_not_allowed: "This path does not take this method.",
  rate_limited: "Too many requests; try again later.",
  storage_full:
    "The disk is full (the computer's, or the relay's, or this account's share of it): the report was not kept; free some space or try again later.",
  internal_error: "An unexpected error; the details are in the log.",
  tracker_unavailable: "The tracker could not be reached or failed.",
  computer_offline: "The computer (its daemon) is not connected to the relay.",
  computer_timeout: "The computer did not answer in time.",
  relay_unavailable: "The relay cannot reach its database just now; try again shortly.",
  claim_code_required: "This relay has no owner yet: the claim code printed at its start is required.",
  invalid_pairing_code: "The pairing code is wrong, used or expired.",
  device_removed: "The device token was rejected (the device was removed).",
  call_already_answered: "Another device answered this call first.",
  call_not_found: "No pending call has this id.",
  device_limit: "The account has as many devices as the relay allows: remove one before adding another.",
  computer_only: "Only a computer of the account posts reports or opens the daemon link.",
  replayed_request:
    "The computer has already taken this sealed request: a copy sent again (a replay) is refused.",
  stale_request:
    "The request's time is too far from the computer's clock (more than 5 minutes, or older than its kind may be): refused as a possible replay; check the device's and the computer's clocks.",
  account_required:
    "This computer has no relay account yet, and a key from a passphrase is salted with the account: log in first (ringback login).",
  model_address_refused:
    "The model's address is a link-local or cloud metadata address (or a name that resolves to one): the computer never connects there.",
  device_mismatch: "The request names another device than the one the relay says sent it.",
  key_rotation_conflict:
    "Another device already replaced the account's key from this one: follow its rotation, then rotate again.",
  invalid_escalation_settings:
    "The escalation settings are invalid, or a channel's secret is missing: none is saved for it on this computer.",
};
