// Moved to @ringback/client's tests; the web app's tests share them from there.
export * from "../../../packages/client/test/fixtures.js";
