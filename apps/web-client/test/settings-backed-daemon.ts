// Moved to @ringback/client's tests; the web app's tests share it from there.
export * from "../../../packages/client/test/settings-backed-daemon.js";
