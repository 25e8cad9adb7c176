// The shapes every Ringback component exchanges, grouped as the README's "What is in it" table: each a zod schema
// whose type is `z.infer` of it, the limits, the error codes with their HTTP status (browser and Node alike).
// biome-ignore-all assist/source/organizeImports: grouped by area for reading, not sorted by path

// Errors: the code -> HTTP status table, the one error class and its body.
export { ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "./error-codes.js";
export { ErrorBody, errorBody, isErrorCode, isRingbackError, RingbackError } from "./ringback-error.js";

// Limits: every number of the specification's Limits table, default ports, reply and pairing-code limits.
export {
  AGENT_ACTIVITY_BODY_MAX_BYTES,
  ANSWERED_IDS_MAX,
  BRIEF_GENERATION_TYPICAL_MS,
  BRIEF_LANGUAGE_RETRY_MS,
  BRIEF_REWRITES_MAX,
  CALL_RECORDS_MAX,
  CALL_WAITING_TONE,
  CONCURRENT_BRIEF_GENERATIONS,
  DEFAULT_LOCAL_PORT,
  DEFAULT_RELAY_PORT,
  DISPATCH_COMPLETED_WITHOUT_ISSUE_MS,
  DISPATCH_CREATION_POLL_MS,
  DISPATCH_ISSUES_MAX,
  DISPATCH_OPTIONS_POLL_MS,
  DISPATCH_RECORDS_MAX,
  DISPATCH_WORDS_MAX,
  E2E_IV_BYTES,
  E2E_KEY_BYTES,
  HOOK_TIMEOUT_MS,
  IMAGE_CONVERSION_MAX_BYTES,
  IMAGE_CONVERSION_MAX_EDGE_PX,
  ISSUE_REFERENCES_MAX,
  LATE_CALL_THRESHOLD_MS,
  OUTBOX_SEND_RETRY_INITIAL_MS,
  OUTBOX_SEND_RETRY_MAX_MS,
  PAIRING_CODE_DIGITS,
  PAIRING_CODE_TTL_MS,
  PASSPHRASE_MIN_CHARS,
  PBKDF2_ITERATIONS,
  PERMISSION_HOOK_TIMEOUT_SECONDS,
  PERMISSION_REASON_MAX_CHARS,
  PERMISSION_WAIT_MS,
  REPLY_EXPIRY_MS,
  REPLY_RUN_TIMEOUT_MS,
  REPLY_STDERR_TAIL_CHARS,
  REPLY_TEXT_MAX_CHARS,
  REPORT_BODY_MAX_BYTES,
  RING_SCHEDULE_LOOKAHEAD_MS,
  RINGTONE_FILE_MAX_BYTES,
  SPOKEN_PARAGRAPH_MAX_RATIO,
  SPOKEN_RATIO_MIN_ORIGINAL_CHARS,
  TRACKER_READ_RETRY_DELAYS_MS,
  UPLOAD_BODY_MAX_BYTES,
  UPLOAD_IMAGE_MAX_BYTES,
} from "./limits.js";

// The hook and the CLI prove to the daemon (and the daemon to them) that each holds the local key, without sending it.
export {
  LOCAL_ANSWER_PROOF_HEADER,
  LOCAL_PROOF_ANSWER_LABEL,
  LOCAL_PROOF_NONCE_PATTERN,
  LOCAL_PROOF_REQUEST_LABEL,
  LOCAL_PROOF_VERSION,
  LOCAL_PROOF_WINDOW_MS,
  LOCAL_REQUEST_PROOF_HEADER,
} from "./local-proof.js";

// Agent reports: the hook's stdin, `POST /report`, what is sealed; the brief written from it and its language.
export {
  AgentCompletionPayload,
  EventId,
  LocalAgentSource,
  Report,
  ReportAccepted,
  ReportRequest,
  ReportSource,
  TrackerReportContext,
} from "./schemas/report.js";
export {
  Brief,
  BriefCard,
  BriefDraft,
  BriefMeta,
  BriefStatus,
  CriticalFact,
  FORM_OF_ADDRESS_PLACEHOLDER,
  generatedBrief,
  NO_LANGUAGE_MODEL_ERROR,
  ReportCut,
  SupplementaryParagraph,
} from "./schemas/brief.js";
export {
  BriefLanguage,
  BriefLanguageSource,
  languageName,
  LanguageTag,
  PutBriefLanguageRequest,
} from "./schemas/brief-language.js";

// The escalation ladder: channels that reach the phone when a call is not answered, and its schedule.
export {
  CallPushedAgain,
  ESCALATION_CHANNEL_KINDS,
  ESCALATION_NEEDS_YOU_AFTER_DEFAULT_SECONDS,
  ESCALATION_SECONDS_MAX,
  ESCALATION_SECONDS_MIN,
  ESCALATION_SENTENCE,
  ESCALATION_STEP_DEFAULT_SECONDS,
  ESCALATION_TITLE,
  EscalationChannel,
  type EscalationChannelKind,
  EscalationChannelPublic,
  EscalationChannelUpdate,
  EscalationSchedule,
  EscalationSettings,
  EscalationSettingsResponse,
  EscalationTestResponse,
  EscalationTiming,
  IDLE_AWAY_DEFAULT_SECONDS,
  IDLE_AWAY_SECONDS_MAX,
  IDLE_AWAY_SECONDS_MIN,
  keptChannel,
  LadderRungName,
  NtfyChannel,
  PushoverChannel,
  PutEscalationSettingsRequest,
  RungAnswer,
  TelegramChannel,
  TwilioChannel,
} from "./schemas/escalation.js";

// What an agent does between its reports (a turn started), as the hook posts it to the daemon.
export { AgentActivity, AgentActivityPost } from "./schemas/agent-activity.js";
// The fleet: each computer's agents as they work, sealed and padded; and the rules for finished calls (gathering,
// a choice per project, the quiet summary).
export {
  FLEET_AGENTS_MAX,
  FLEET_ENDED_KEPT_MS,
  FLEET_HEADLINE_MAX_CHARS,
  FLEET_PAD_STEP_BYTES,
  FLEET_SEALED_PLAINTEXT_MAX_BYTES,
  FLEET_UPDATE_MIN_INTERVAL_MS,
  FleetAgent,
  FleetAgentState,
  FleetState,
  FleetStatePut,
  RelayedFleet,
  RelayedFleetState,
} from "./schemas/fleet.js";
export {
  CallRing,
  CallRules,
  GATHER_SECONDS_DEFAULT,
  GATHER_SECONDS_MAX,
  PROJECT_NAME_MAX_CHARS,
  PROJECT_RULES_MAX,
  ProjectRing,
} from "./schemas/call-rules.js";

// The user's language model: its settings, the connection test, each endpoint's time limits.
export {
  chatCompletionsUrl,
  LlmChannel,
  LlmChannelPublic,
  LlmSettingsResponse,
  PutLlmSettingsRequest,
  secretHint,
  StructuredOutput,
} from "./schemas/llm.js";
export {
  BriefTimeEstimate,
  LlmTestFailureCode,
  LlmTestProgress,
  LlmTestRequest,
  LlmTestResponse,
  LlmTestStep,
  LlmTestTiming,
} from "./schemas/llm-test.js";
export {
  CONCURRENT_BRIEFS_PER_ENDPOINT,
  MODEL_CALL_FIT_MARGIN,
  MODEL_CALL_LIMIT_MAX_MS,
  MODEL_CALL_LIMIT_MIN_MS,
  MODEL_CALL_LIMITS_DEFAULT_MS,
  ModelCallLimitMs,
  MODEL_OUTPUT_TOKENS_MAX,
  MODEL_OUTPUT_TOKENS_MIN,
  ModelOutputTokens,
  modelCallLimits,
  type ModelCallLimits,
  modelEndpointKind,
  ModelEndpointKind,
  timeoutToFitMs,
} from "./model-endpoint.js";

// The daemon: its configuration file, its local interface, what it posts to the relay and what devices seal for it.
export { DaemonConfig } from "./schemas/daemon-config.js";
export {
  CANNOT_DECRYPT_REPLY,
  DaemonEventPost,
  DaemonTrackerReportPost,
  LocalLastReport,
  LocalLoginRequest,
  LocalLoginResult,
  LocalStatus,
  RelayedMethod,
  RelayLinkStatus,
  ReplyErrorPlaintext,
  ReplyPlaintext,
  SealedReportPayload,
  SettingsRequestPlaintext,
  SettingsResultPlaintext,
  StampedSettingsRequest,
  TrackerQuestion,
  TrackerQuestionTrigger,
} from "./schemas/daemon-relay.js";
export { REQUEST_CLOCK_WINDOW_MS, RequestNonce, RequestStamp } from "./schemas/request-stamp.js";

// End-to-end keys: the daemon's key record, setting it, pairing; the account's key rotation notices.
export {
  E2eKeyRecord,
  E2eKeySource,
  E2eKeyText,
  isPassphraseLongEnough,
  LocalPairingRequest,
  PairingResult,
  PutE2eKeyRequest,
  PutE2eKeyResponse,
} from "./schemas/e2e.js";
export {
  KEY_ROTATIONS_KEPT_MAX,
  KeyRotationApplied,
  KeyRotationList,
  KeyRotationNotice,
  KeyRotationPlaintext,
  KeyRotationPosted,
} from "./schemas/key-rotation.js";

// "Needs you": an agent's permission ask and a device's decision; the computer's presence and its away hours.
export {
  isNeedsYouEventId,
  NEEDS_YOU_EVENT_ID_PREFIX,
  PermissionAgent,
  PermissionAnswer,
  PermissionAsk,
  PermissionDecisionPlaintext,
  PermissionNoDecision,
  PermissionRequestPost,
  PermissionShortened,
  PermissionVerdict,
  Presence,
  PRESENCE_SET_FROM_A_DEVICE,
  PRESENCE_SET_HERE,
  PresenceUpdate,
} from "./schemas/permission.js";
export {
  AwayPeriod,
  AwaySchedule,
  AwayScheduleUpdate,
  isInTimeRange,
  KeptAwaySchedule,
  minuteOf,
  TimeOfDay,
  TimeRange,
} from "./schemas/away-schedule.js";

// The tracker and dispatch: its settings and workspaces, issue references, new work for an agent.
export {
  ISSUE_PRIORITIES,
  type IssuePriority,
  IssueReference,
  IssueRefresh,
  ListTrackerWorkspacesRequest,
  ListTrackerWorkspacesResponse,
  PutTrackerSettingsRequest,
  RefreshIssuesRequest,
  RefreshIssuesResponse,
  TrackerSettings,
  TrackerSettingsResponse,
  TrackerWorkspace,
  TrackerWorkspaceStatus,
} from "./schemas/tracker.js";
export {
  Attachment,
  CommentDispatchRequest,
  CreateDispatchRequest,
  CreateIssueDispatchRequest,
  DispatchAgent,
  DispatchIdRequest,
  DispatchIssue,
  type DispatchIssueFields,
  DispatchIssuesRequest,
  DispatchIssuesResponse,
  DispatchListResponse,
  DispatchOptions,
  DispatchOptionsRequest,
  DispatchProject,
  DispatchRecord,
  DispatchResponse,
  DispatchState,
  DispatchStatusesRequest,
  DispatchStatusesResponse,
  NO_DISPATCH_ISSUE,
  StatusEntry,
  UploadRequest,
  UploadResponse,
} from "./schemas/dispatch.js";

// The relay API (v1): accounts, devices and pairing, calls and their status, replies, the event stream, the
// daemon link.
export {
  CallDelivery,
  CallStatus,
  CallStatusChange,
  CallStatusRequest,
  CallStatusResult,
  CallStatusWrite,
  CreateAccountRequest,
  DaemonToRelayMessage,
  DeliveryOutcome,
  DeliveryReport,
  DEVICE_NAME_MAX_CHARS,
  DeviceCredentials,
  DeviceDeliveryOutcome,
  DeviceInfo,
  DeviceKind,
  DeviceList,
  DeviceName,
  DeviceRemoved,
  DeviceRenamed,
  EventPosted,
  FINAL_CALL_STATUSES,
  isFinalCallStatus,
  LINK_CLOSE_CODES,
  LinkReply,
  LinkReplyStatus,
  LinkSettingsError,
  LinkSettingsRequest,
  LinkSettingsResult,
  PairingCodeCreated,
  PairingCodeText,
  PlaintextReason,
  RedeemPairingCodeRequest,
  RELAY_EVENT_BODY_MAX_BYTES,
  RELAY_LINK_PING_MS,
  RELAY_REPLY_BODY_MAX_BYTES,
  RELAY_SETTINGS_BODY_MAX_BYTES,
  RELAY_SETTINGS_TIMEOUT_MS,
  RELAY_SMALL_BODY_MAX_BYTES,
  RELAY_SSE_EVENTS,
  RELAY_SSE_HEARTBEAT_MS,
  RelayClientId,
  RelayDeviceName,
  RelayedEvent,
  RelayHealth,
  RelaySetup,
  type RelaySseEventName,
  RelayStoreKind,
  RelayToDaemonMessage,
  RenameDeviceRequest,
  REPLY_COMPUTER_REMOVED_REASON,
  REPLY_EXPIRED_REASON,
  ReplyAccepted,
  ReplyRequest,
  ReplyStatus,
  ReplyStatusChange,
  SEALED_DEVICE_NAME_MAX_CHARS,
  SealedDeviceName,
  SealedText,
  SettingsRelayRequest,
  SettingsRelayResult,
  StreamDeviceRemoved,
  StreamSynced,
} from "./schemas/relay.js";

// Web Push: the relay's public key, a device's subscription, the routing-only message a push carries, the declarative
// message around it, and what a VAPID contact must be for every push service to take it.
export {
  DECLARATIVE_PUSH_MARKER,
  DeclarativePushMessage,
  DeclarativePushNotification,
  PUSH_ENDPOINT_MAX_CHARS,
  PUSH_NOTIFICATION_TAG_PREFIX,
  PUSH_PAYLOAD_MAX_BYTES,
  PUSH_POLL_DEFAULT_MS,
  PUSH_REPEAT_DEFAULT_SECONDS,
  PUSH_REPEAT_MAX_SECONDS,
  PUSH_REPEAT_MIN_SECONDS,
  PushCallMessage,
  PushCallSettledMessage,
  PushMessage,
  PushPublicKey,
  PushSubscriptionKeys,
  PushSubscriptionRequest,
  PushSubscriptionState,
  pushMessageOf,
  pushNotificationTag,
} from "./schemas/push.js";
export { type VapidSubjectCheck, vapidSubjectCheck } from "./vapid-subject.js";

// Log lines: what a value may add to a log line, escaped and cut (the daemon's and the relay's logs).
export { LOG_VALUE_MAX_CHARS, logSafe, logSafeLine } from "./log-safe.js";

// Weekly hours in a time zone: the one engine for the phone's ring modes and the computer's away hours.
export {
  lastWeeklyChange,
  nextWeeklyChange,
  type WallClock,
  wallClockAt,
  type WeeklySchedule,
} from "./weekly-schedule.js";
