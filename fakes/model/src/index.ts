export { agentEcho } from "./agent-answer.js";
export type { AgentWireFormat } from "./agent-tools.js";
export {
  CLAUDE_SHELL_TOOL,
  CODEX_SHELL_TOOL,
  type FakeToolCall,
  type FakeToolResult,
  type ShellFromPromptOptions,
  toolResultsOf,
} from "./agent-tools.js";
export { answers, briefDraft, type FakeAnswer, type FakeBriefDraft, type StreamTiming } from "./answers.js";
export { echoBrief, reportOf } from "./echo-brief.js";
export {
  type FakeChatCall,
  type FakeModel,
  type FakeModelOptions,
  type RecordedRequest,
  startFakeModel,
} from "./fake-model.js";
