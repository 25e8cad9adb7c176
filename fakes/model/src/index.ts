export { type AgentWireFormat, agentEcho } from "./agent-answer.js";
export { answers, briefDraft, type FakeAnswer, type FakeBriefDraft } from "./answers.js";
export { echoBrief, reportOf } from "./echo-brief.js";
export { type FakeModel, type FakeModelOptions, type RecordedRequest, startFakeModel } from "./fake-model.js";
