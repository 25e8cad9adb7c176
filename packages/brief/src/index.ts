export { type BriefPlan, briefPlan, CONTEXT_TOKENS, reportBudgetTokens } from "./brief-budget.js";
export { briefInWords, type CallInWords } from "./brief-in-words.js";
export {
  BriefRewriteDraft,
  briefJsonSchema,
  briefRewriteJsonSchema,
  type JsonSchema,
} from "./brief-schema.js";
export { BRIEF_SCHEMA_NAME, type ModelCallFailure, type ModelCallStep } from "./call-model.js";
export { type ModelCallStats, outputTokensPerSecond, promptTokensPerSecond } from "./call-stats.js";
export { type BriefCheck, characterCount, checkBrief, maxSpokenChars, type UncoveredFact } from "./checks.js";
export { type BriefTimeEstimate, type ConnectionTiming, connectionTiming } from "./connection-estimate.js";
export { type BriefEvaluation, type EvaluateBriefsOptions, evaluateBriefs } from "./evaluate.js";
export { FAILED_BRIEF_TITLE_MAX_CHARS, failedBrief, reportTitle } from "./failed-brief.js";
export { evaluationFailed, evaluationProblems, formatEvaluation } from "./format-evaluation.js";
export { type GenerateBriefOptions, generateBrief } from "./generate-brief.js";
export {
  BRIEF_OUTPUT_TOKENS_MAX,
  BRIEF_OUTPUT_TOKENS_MIN,
  briefOutputTokens,
  SPOKEN_TARGET_MAX_CHARS,
  spokenTargetChars,
} from "./output-limit.js";
export {
  describePermissionAsk,
  type PermissionAskFacts,
  type PermissionAskWords,
} from "./permission-ask.js";
export { readReportFile } from "./read-report-file.js";
export { type GivenReport, reportWithinBudget } from "./report-cut.js";
export {
  CONNECTION_TEST_LANGUAGE,
  CONNECTION_TEST_REPORT,
  type ConnectionTestResult,
  testConnection,
} from "./test-connection.js";
export { estimateTokens } from "./token-estimate.js";
export {
  describeTrackerQuestion,
  type TrackerQuestionFacts,
  type TrackerQuestionWords,
} from "./tracker-question.js";
