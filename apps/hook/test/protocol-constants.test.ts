import * as protocol from "@ringback/protocol";
import { expect, it } from "vitest";
import {
  DEFAULT_LOCAL_PORT,
  HOOK_TIMEOUT_MS,
  LOCAL_ANSWER_PROOF_HEADER,
  LOCAL_PROOF_ANSWER_LABEL,
  LOCAL_PROOF_REQUEST_LABEL,
  LOCAL_PROOF_VERSION,
  LOCAL_REQUEST_PROOF_HEADER,
  PERMISSION_REASON_MAX_CHARS,
  PERMISSION_WAIT_MS,
  REPORT_BODY_MAX_BYTES,
} from "../src/daemon-call/protocol-constants.js";
import { PERMISSION_HOOK_TIMEOUT_SECONDS } from "../src/installer/protocol-constants.js";

it("copies protocol's constants exactly (the hook cannot import protocol at run time)", () => {
  expect(HOOK_TIMEOUT_MS).toBe(protocol.HOOK_TIMEOUT_MS);
  expect(DEFAULT_LOCAL_PORT).toBe(protocol.DEFAULT_LOCAL_PORT);
  expect(REPORT_BODY_MAX_BYTES).toBe(protocol.REPORT_BODY_MAX_BYTES);
  expect(PERMISSION_WAIT_MS).toBe(protocol.PERMISSION_WAIT_MS);
  expect(PERMISSION_HOOK_TIMEOUT_SECONDS).toBe(protocol.PERMISSION_HOOK_TIMEOUT_SECONDS);
  expect(PERMISSION_REASON_MAX_CHARS).toBe(protocol.PERMISSION_REASON_MAX_CHARS);
  expect(LOCAL_REQUEST_PROOF_HEADER).toBe(protocol.LOCAL_REQUEST_PROOF_HEADER);
  expect(LOCAL_ANSWER_PROOF_HEADER).toBe(protocol.LOCAL_ANSWER_PROOF_HEADER);
  expect(LOCAL_PROOF_VERSION).toBe(protocol.LOCAL_PROOF_VERSION);
  expect(LOCAL_PROOF_REQUEST_LABEL).toBe(protocol.LOCAL_PROOF_REQUEST_LABEL);
  expect(LOCAL_PROOF_ANSWER_LABEL).toBe(protocol.LOCAL_PROOF_ANSWER_LABEL);
});

it("gives the permission hook room for the daemon's whole wait and the hook's own margin", () => {
  // The hook reads stdin within HOOK_TIMEOUT_MS, then waits PERMISSION_WAIT_MS + 15 s: the agent must not kill it first.
  expect(HOOK_TIMEOUT_MS + PERMISSION_WAIT_MS + 15_000).toBeLessThan(PERMISSION_HOOK_TIMEOUT_SECONDS * 1000);
});
