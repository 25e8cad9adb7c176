import { sealSettingsRequest } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import type { DaemonToRelayMessage, SettingsRequestPlaintext } from "@ringback/protocol";
import {
  answerSettingsRequest,
  type SettingsRequestContext,
} from "../../src/runtime/relay-link/settings-request.js";
import { ReplayGuard } from "../../src/runtime/replay-guard.js";
import { type InProcessDaemon, TEST_PORT } from "./in-process-daemon.js";

/** The relay device id the in-process daemon answers relayed requests as. */
export const TEST_COMPUTER_ID = "dev_test_computer";

/**
 * What a relayed request needs of an in-process daemon, as its relay link gives it: its key, its computer id, its
 * local interface and a replay guard on its data dir (`now` is the guard's clock).
 */
export async function relayContext(
  daemon: InProcessDaemon,
  key: E2eKey,
  options: { now?: () => Date } = {},
): Promise<SettingsRequestContext> {
  return {
    key,
    computerId: TEST_COMPUTER_ID,
    guard: await ReplayGuard.load(daemon.dataDir, () => undefined, options),
    app: daemon.app,
    localKey: daemon.localKey,
    port: TEST_PORT,
  };
}

/** The link message of a request a device seals for the test computer (`sentAt` its clock), as the client does. */
export async function sealedRequest(
  key: E2eKey,
  request: SettingsRequestPlaintext,
  sentAt?: Date,
): Promise<{ type: "settings-request"; requestId: string; sealed: string }> {
  const { requestId, sealed } = await sealSettingsRequest(key, TEST_COMPUTER_ID, request, sentAt);
  return { type: "settings-request", requestId, sealed };
}

/**
 * Seals `request` as a device does (with `sealingKey`, at `sentAt`) and lets the daemon answer it, as it does for
 * one from its link.
 */
export async function askRelayed(
  context: SettingsRequestContext,
  request: SettingsRequestPlaintext,
  sealingKey: E2eKey = context.key,
  sentAt?: Date,
): Promise<DaemonToRelayMessage> {
  return answerSettingsRequest(await sealedRequest(sealingKey, request, sentAt), context);
}
