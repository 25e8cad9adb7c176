export {
  type ChildOptions,
  type ChildResult,
  type Exit,
  type RunOptions,
  runToEnd,
  StartedChild,
  startChild,
} from "./child-process.js";
export { CHROMIUM_ARGS, CHROMIUM_PATH } from "./chromium.js";
export { daemonTestEnv } from "./daemon-env.js";
export { dispatchRecord } from "./dispatch-record.js";
export {
  type ChannelAccounts,
  type ChannelRequest,
  type EscalationService,
  type FakeEscalationChannels,
  startFakeEscalationChannels,
} from "./escalation-channels.js";
export { Changes, type EventuallyOptions, eventually } from "./eventually.js";
export { freePort } from "./free-port.js";
export { jpegSize } from "./jpeg-size.js";
export { type LoopbackServer, listenOnLoopback } from "./loopback-server.js";
export { pasteTwoImages } from "./pasted-images.js";
export { isRunning } from "./process-running.js";
export { onRunEnd } from "./run-end.js";
export {
  type RelayAnswer,
  type RelayPost,
  type RelayScript,
  type ScriptedRelay,
  startScriptedRelay,
} from "./scripted-relay.js";
export { makeTemporaryDirectory, type TemporaryDirectory } from "./temporary-directory.js";
export {
  type ReceivedPush,
  startTestPushService,
  type TestPushService,
  type TestSubscription,
} from "./test-push-service.js";
export { readVapid } from "./web-push-receiving.js";
export { type BrowserForFile, chromiumForFile, type SharedBrowser } from "./worker-chromium.js";
