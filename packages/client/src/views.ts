// `@ringback/client/views`: what a screen shows, built from the main entry's state and `@ringback/client/texts`:
// the calls page's tabs and groups, a call's delivery trail and reply lines, the settings screens' rows, forms,
// problem lines and day names, the ringtone list, the push log. A client with screens of its own leaves them out.

export {
  ALL_TAB,
  type CallProject,
  type CallsGroup,
  type CallsPageView,
  type CallsTab,
  callsPageView,
  missedIdsInTab,
  projectOf,
} from "./calls/calls-page.js";
export {
  type DeliveryStep,
  type DeliveryStepKind,
  type DeliveryTrailTexts,
  deliverySteps,
  deliveryTrailText,
} from "./calls/delivery-trail.js";
export {
  type AskOutcome,
  askOutcomesElsewhere,
  canDecide,
  type NeedsYouStatus,
  needsYouStatus,
  needsYouStatusText,
} from "./calls/needs-you-view.js";
export {
  type ComputerChoiceView,
  type ComputerEntry,
  computerChoiceView,
} from "./computer-settings/computer-choice-view.js";
export {
  type ComputerModelForm,
  computerModelForm,
  customLimit,
  type ModelLimitDefaults,
  type ModelLimitField,
  type ModelOutputCapField,
  modelLimitDefaults,
} from "./computer-settings/computer-model-form.js";
export {
  type ModelTimingLines,
  type ModelTimingView,
  modelTimingLines,
  modelTimingView,
  type ReportTimeLine,
  type TimingAdvice,
} from "./computer-settings/computer-model-timing.js";
export { computerProblemText } from "./computer-settings/computer-problem.js";
export { presenceSetByText } from "./computer-settings/presence-words.js";
export {
  type WatchedWorkspaceRow,
  watchedWorkspaceRows,
  workspaceStateText,
} from "./computer-settings/watched-workspaces.js";
export { deviceLabel } from "./devices/device-label.js";
export { durationText, fleetEntryWords } from "./fleet/fleet-words.js";
export { type PushLogLine, pushLogLines } from "./push/push-log-lines.js";
export { modelProblemText } from "./questions/model-problem.js";
export { channelForm, channelFromForm, type QuestionChannelForm } from "./questions/question-channel-form.js";
export { replyDeliveryText } from "./replies/reply-delivery-text.js";
export {
  type ReplyLine,
  type ReplyStatusView,
  replyLines,
  replyStatusView,
} from "./replies/reply-status-view.js";
export { localeName } from "./report-language/locales.js";
export { type DaysSummary, daysSummary, MONDAY_FIRST, weekdayName } from "./ring-schedule/mode-editor.js";
export { type RingtoneListView, ringtoneList } from "./ringtones/ringtone-list.js";
