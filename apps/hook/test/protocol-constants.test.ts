import * as protocol from "@ringback/protocol";
import { expect, it } from "vitest";
import { DEFAULT_LOCAL_PORT, HOOK_TIMEOUT_MS, REPORT_BODY_MAX_BYTES } from "../src/protocol-constants.js";

it("copies protocol's constants exactly (the hook cannot import protocol at run time)", () => {
  expect(HOOK_TIMEOUT_MS).toBe(protocol.HOOK_TIMEOUT_MS);
  expect(DEFAULT_LOCAL_PORT).toBe(protocol.DEFAULT_LOCAL_PORT);
  expect(REPORT_BODY_MAX_BYTES).toBe(protocol.REPORT_BODY_MAX_BYTES);
});
