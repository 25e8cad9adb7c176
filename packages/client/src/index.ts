// The main entry: a companion's logic, grouped as the README's API is, for any client (browser or Node: no DOM, no
// `node:` import). The interface texts are in `@ringback/client/texts`, what a screen shows (built from them) in
// `@ringback/client/views`, the file store in `@ringback/client/node`.
// biome-ignore-all assist/source/organizeImports: grouped as the README's API for reading, not sorted by path

// Errors: the one base of every error this package throws, with a `code` to branch on.
export { ClientError, isClientError } from "./errors/client-error.js";

// Relay: every v1 route a device uses, the event stream with resume, whether the relay is out of reach, opening a
// sealed call, a relayed daemon request.
export { RelayClient, type RelayClientOptions } from "./relay/relay-client.js";
export { isRelayError, RelayError } from "./relay/relay-error.js";
export {
  CallStream,
  type CallStreamHandlers,
  type CallStreamOptions,
  STREAM_RECONNECT_DELAYS_MS,
  STREAM_SILENCE_LIMIT_MS,
  type StreamConnection,
  type SyncedContext,
} from "./relay/call-stream.js";
export { RELAY_UNREACHABLE_AFTER_MS, RelayReach, type RelayReachOptions } from "./relay/relay-reach.js";
export { OpenCallError, type OpenCallProblem, openRelayedEvent } from "./relay/open-call.js";
export { DaemonRequestError, relayDaemonRequest, sealSettingsRequest } from "./relay/daemon-request.js";

// A companion's calls: CallCenter keeps the stored calls, the stream, the lifecycle and its effects; who is calling.
export {
  CallCenter,
  type CallCenterOptions,
  type CallCenterView,
  SCHEDULE_CHECK_MS,
  type UnreadableCall,
} from "./companion/call-center.js";
export { callerName } from "./calls/caller-name.js";

// Calls: the lifecycle as one pure reducer, the call record, which call an address opens, the writes retried until
// the relay has them, a reply sealed for the computer.
export {
  activeCall,
  type CallAction,
  type CallEffect,
  type CallEnvironment,
  type CallLifecycleAction,
  type CallsModel,
  type CallTransition,
  EMPTY_CALLS_MODEL,
  failedCalls,
  isRaisedBeforeJoining,
  type RemoteCallStatus,
  reduceCalls,
  ringingCall,
} from "./calls/call-machine.js";
export type { CallContent, CallRecordChange } from "./calls/call-record-changes.js";
export {
  type CallAnswer,
  type CallIssue,
  type CallOutcome,
  type CallRecord,
  type CallRouting,
  type CallState,
  type CallStatusFields,
  type ConversationEntry,
  type DecisionEntry,
  isWaiting,
  type MissedReason,
  newCallRecord,
  type ReadingProblem,
  type ReplyDelivery,
  type SentReply,
  type SentVerdict,
  WAITING_STATES,
  withStatus,
} from "./calls/call-record.js";
export type { DeliveryEntry, DeliveryReportState } from "./calls/delivery-entries.js";
export { withDeliveryReport } from "./calls/call-deliveries.js";
export { callIdOfAddress, decideOpen, type OpenDecision } from "./calls/open-request.js";
export {
  STATUS_WRITE_RETRY_DELAYS_MS,
  type StatusWriteOutcome,
  StatusWriter,
} from "./controller/status-writer.js";
export {
  DELIVERY_REPORT_RETRY_DELAYS_MS,
  DeliveryReporter,
  type DeliveryReportOutcome,
  type PendingReport,
} from "./controller/delivery-reporter.js";
export { newReplyId, sealReply } from "./replies/reply.js";

// "Needs you" calls: an agent waits for permission; the ask, when it stops waiting, a decision sealed for its computer.
export {
  askProject,
  DecisionError,
  type DecisionProblem,
  decisionProblem,
  hasStoppedWaiting,
  isNeedsYou,
  needsYouAsk,
} from "./calls/needs-you.js";
export { isTestCall, TEST_CALL_PREFIX, type TestCallWords } from "./calls/test-call.js";
export { type PermissionDecision, sealPermissionDecision } from "./replies/permission-decision.js";
// A tracker agent's question rings as "needs you" too, and is answered with a reply (a comment on the issue).
export { ringsAsNeedsYou, trackerQuestionOf } from "./calls/tracker-question-call.js";

// Storage: the injected key-value store, what is kept in it, the key names (the web app's service worker reads the
// same keys); the injected timers and clock; the observable every controller's view is.
export type { KeyValueStore } from "./storage/key-value.js";
export { createMemoryStore } from "./storage/memory-key-value.js";
export { DeviceIdentity, LocalSettings, type Pairing, QuestionChannel } from "./storage/local-settings.js";
export { CallRecordsStore, loadAnsweredIds, saveAnsweredIds } from "./storage/call-records.js";
export {
  ANSWERED_IDS_KEY,
  callRecordKey,
  E2E_KEY_KEY,
  FORM_OF_ADDRESS_KEY,
  IDENTITY_KEY,
  INTERFACE_LANGUAGE_KEY,
  KEY_ROTATION_OWED_KEY,
  LAST_EVENT_ID_KEY,
  PUSH_LOG_KEY,
  PUSH_SETTINGS_KEY,
  RING_MODES_KEY,
  SET_ASIDE_IDS_KEY,
  VOICE_SETTINGS_KEY,
} from "./storage/storage-keys.js";
export {
  type Clock,
  PLATFORM_TIMERS,
  SYSTEM_CLOCK,
  type TimerHandle,
  type Timers,
} from "./runtime/timers.js";
export { Observable } from "./controller/observable.js";

// Ring modes: when a call may ring, the mode editor's rules and overlaps, the preinstalled modes.
export { ALWAYS_RING, type RingSchedule } from "./ring-schedule/ring-schedule.js";
export { RingModesSchedule } from "./ring-schedule/ring-modes-schedule.js";
export { isRingingAllowedAt } from "./ring-schedule/day-evaluation.js";
export { awayScheduleOf, type ModeNameTexts, ringModeName } from "./ring-schedule/away-schedule.js";
export { EVERY_DAY, RingMode, RingRule, TimeRange, type Weekday } from "./ring-schedule/ring-mode.js";
export {
  addRange,
  crossesMidnight,
  isWholeDay,
  type ModeDraft,
  type ModeProblem,
  modeProblems,
  newModeDraft,
  removeRange,
  setRange,
  toggleDay,
} from "./ring-schedule/mode-editor.js";
export { deleteMode, type ModesChange, saveMode, setModeOn } from "./ring-schedule/mode-overlap.js";
export { PREINSTALLED_MODES, SLEEP_MODE, WORK_MODE } from "./ring-schedule/preinstalled-modes.js";
export { readStoredModes } from "./ring-schedule/stored-modes.js";
export { RingModesController, type RingModesView } from "./controller/ring-modes-controller.js";

// Ringtones: the tones, the ringer a platform implements, the user's tone files and which tone rings for what.
export { CLASSIC_TONE, NEEDS_YOU_TONE, type Tone, type ToneStep, toneBursts } from "./audio/tones.js";
export type { Ringer } from "./audio/ringer.js";
export { BUILTIN_TONES } from "./ringtones/builtin-tones.js";
export {
  builtinRef,
  fileRef,
  itemsUsing,
  type RingtoneChoices,
  RINGTONE_ITEMS,
  type RingtoneItem,
  ringtoneItemOf,
  SILENT,
  ToneRef,
} from "./ringtones/ringtone-items.js";
export { RingtoneFileError, RingtoneFiles } from "./ringtones/ringtone-files.js";
export type { RingtoneFileInfo } from "./ringtones/ringtone-list.js";
export { RingtonesController, type RingtonesView } from "./controller/ringtones-controller.js";

// Reading and questions: the brief as read aloud, the reader, the in-call questions to the device's own model, the
// voice a platform provides.
export {
  type BriefScript,
  briefScript,
  type ScriptOptions,
  type ScriptSegment,
  scriptSentences,
} from "./reading/brief-script.js";
export { addressed, defaultFormOfAddress } from "./reading/form-of-address.js";
export {
  currentSentence,
  READER_START,
  type ReaderAction,
  type ReaderState,
  reduceReader,
  trackSentences,
} from "./reading/reader.js";
export {
  QuestionSession,
  type QuestionSessionDependencies,
  type QuestionSessionView,
} from "./questions/question-session.js";
export { type ChatMessage, streamAnswer } from "./questions/ask-model.js";
export { listModels } from "./questions/list-models.js";
export { followReader, type ListeningProgress, startProgress } from "./questions/listening-progress.js";
export { ModelAnswerError, type ModelProblem, modelProblemOf } from "./questions/model-problem.js";
export {
  type PreparedVoice,
  pickVoice,
  type VoiceOption,
  type VoicePlatform,
} from "./voice/voice-platform.js";
export {
  clampSpeed,
  DEFAULT_VOICE_SETTINGS,
  SPEECH_SPEED_MAX,
  SPEECH_SPEED_MIN,
  type SpeechEndpoint,
  type VoicePlatformId,
  type VoiceSettings,
} from "./voice/voice-settings.js";

// Pairing: the pairing link, joining an account, creating one, inviting another device.
export {
  formatPairingLink,
  hasPairingFragment,
  normaliseServerUrl,
  type PairingLink,
  PairingLinkError,
  type PairingLinkProblem,
  parsePairingLink,
} from "./pairing/pairing-link.js";
export {
  createAccount,
  type DeviceInvitation,
  inviteDevice,
  joinWithCode,
  joinWithLink,
  type NewDevice,
} from "./pairing/pairing-flow.js";
export { defaultDeviceName, deviceKindOf } from "./pairing/device-name.js";
// Device names: sealed by each device for the relay, read here with the key (a kind where one does not open).
export {
  type ReadableDelivery,
  type ReadableDevice,
  readDelivery,
  readDeviceList,
} from "./devices/device-list.js";
export {
  checkedDeviceName,
  isSealedDeviceName,
  placeholderDeviceName,
  readDeviceName,
  readListedName,
} from "./devices/device-names.js";
export { type OwnNameRelay, resealOwnDeviceName, setOwnDeviceName } from "./devices/own-device-name.js";
// Key rotation: removing a device replaces the account's key; the others follow the relay's sealed notices.
export { type ComputerMove, KeyRotator, type KeyRotatorOptions } from "./key-rotation/key-rotator.js";
export { type FollowedKey, followKeyRotations } from "./key-rotation/follow-rotations.js";
export { type KeyRotation, openKeyRotation, sealKeyRotation } from "./key-rotation/rotation-notice.js";

// Daemon settings: the computer's settings relayed end-to-end (its model and tracker), the brief language, the
// report languages.
export { DaemonClient } from "./daemon/daemon-client.js";
export { NoComputerError } from "./daemon/computer-choice.js";
export { hasDaemonCode, isComputerOffline, isDaemonUnreachable } from "./daemon/daemon-error.js";
export { DaemonAccess, type DaemonAccessView } from "./controller/daemon-access.js";
export {
  type ComputerModelBusy,
  type ComputerModelClient,
  ComputerModelController,
  type ComputerModelView,
} from "./computer-settings/computer-model-controller.js";
export {
  type EscalationClient,
  EscalationController,
  type EscalationView,
} from "./computer-settings/escalation-controller.js";
export {
  type CallRulesClient,
  CallRulesController,
  type CallRulesView,
  callProject,
  ruleProjects,
  withProjectRing,
} from "./computer-settings/call-rules-controller.js";
export {
  type TrackerBusy,
  type TrackerSettingsClient,
  TrackerSettingsController,
  type TrackerSettingsDependencies,
  type TrackerSettingsView,
  type WorkspaceChoice,
} from "./computer-settings/tracker-settings-controller.js";
export {
  type PresenceClient,
  PresenceController,
  type PresenceDependencies,
  type PresenceRow,
  type PresenceView,
} from "./computer-settings/presence-controller.js";
export {
  type ComputerProblem,
  type ComputerProblemKind,
  computerProblemOf,
  formProblem,
} from "./computer-settings/computer-problem.js";
export { BriefLanguageSync, type BriefLanguageSyncState } from "./report-language/brief-language-sync.js";
export { defaultReportLanguage } from "./report-language/default-language.js";
export { isReportLocale, REPORT_LOCALES, type ReportLocale } from "./report-language/locales.js";

// Dispatch: new work for an agent, its images, the call-waiting ring while the tracker creates the issue.
export {
  DispatchController,
  type DispatchControllerOptions,
  type DispatchView,
} from "./dispatch/dispatch-controller.js";
export type { DispatchBlocker } from "./dispatch/dispatch-blocker.js";
export type { DispatchProblem } from "./dispatch/dispatch-problem.js";
export { type DispatchClient, type DispatchDaemon, dispatchDaemonOf } from "./dispatch/dispatch-daemon.js";
export type { DraftImage } from "./dispatch/draft-images.js";
export type { ImagePreparer, PreparedImage } from "./dispatch/prepared-image.js";
export {
  CONVERTED_IMAGE_TYPE,
  convertedName,
  convertedSize,
  needsConversion,
  UPLOADABLE_IMAGE_TYPES,
} from "./dispatch/image-conversion-rule.js";
export { blobToBase64 } from "./dispatch/blob-base64.js";

// Push: the Web Push subscription through the relay, and the device's log of what each push did.
export { PushRelay } from "./push/push-relay.js";
export { logPushStep, type PushLogEntry, readPushLog } from "./push/push-log.js";
export { PUSH_REPEAT_CHOICES_SECONDS } from "./push/push-texts.js";

// Fleet: every computer's agents, opened with the account key, the newest state of each kept, and the app badge.
export { OpenFleetError, type OpenFleetProblem, openRelayedFleetState } from "./fleet/open-fleet-state.js";
export { EMPTY_FLEET_BOOK, type FleetBook, withComputersOnly, withFleetState } from "./fleet/fleet-book.js";
export { type FleetEntry, fleetList, needsYouEntries } from "./fleet/fleet-list.js";
export { badgeCount } from "./fleet/badge-count.js";

// Round-up: several waiting calls read as one call, its opening built from each call's checked headline, then each
// call in turn (Next, Skip, Answer), a call arriving meanwhile joining its end, and the voice commands.
export {
  isRoundUpCall,
  type RoundUpItem,
  type RoundUpKind,
  roundUpCalls,
  roundUpItem,
} from "./round-up/round-up-calls.js";
export { type RoundUpOpening, roundUpOpening } from "./round-up/round-up-opening.js";
export {
  currentRoundUpCall,
  isRoundUpOver,
  type RoundUp,
  type RoundUpAction,
  type RoundUpStep,
  type RoundUpTransition,
  reduceRoundUp,
  startRoundUp,
} from "./round-up/round-up-sequence.js";
export { type VoiceCommand, voiceCommandOf } from "./round-up/voice-command.js";
export { FleetWatch } from "./fleet/fleet-watch.js";
