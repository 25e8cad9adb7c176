import { generateKey } from "@ringback/e2e-crypto";
import { errorBody, isRingbackError } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type StandInComputer, startStandInComputer } from "../../test/stand-in-computer.js";
import { RelayClient } from "../relay/relay-client.js";
import { isRelayError } from "../relay/relay-error.js";
import { DaemonClient } from "./daemon-client.js";
import { isComputerOffline, isDaemonUnreachable } from "./daemon-error.js";

const key = generateKey();

describe("the daemon client over the settings relay", () => {
  let computer: StandInComputer;
  let answer: { status: number; body: unknown };

  beforeEach(async () => {
    answer = { status: 200, body: { language: "de-AT", source: "app" } };
    computer = await startStandInComputer(key, () => answer);
  });

  afterEach(async () => {
    await computer.close();
  });

  const client = () =>
    new DaemonClient(new RelayClient({ serverUrl: computer.origin, deviceToken: "tok" }), key, "dev_pc");

  it("sends the daemon's method, path and body, and checks the answer against the protocol schema", async () => {
    expect(await client().briefLanguage()).toEqual({ language: "de-AT", source: "app" });
    answer = { status: 200, body: { channel: null } };
    await client().saveLlmSettings({ baseUrl: "http://127.0.0.1:1/v1", model: "m" });
    expect(computer.requests).toEqual([
      { method: "GET", path: "/brief/language" },
      { method: "PUT", path: "/llm/settings", body: { baseUrl: "http://127.0.0.1:1/v1", model: "m" } },
    ]);
  });

  it("turns the daemon's error envelope into a RingbackError with the protocol code", async () => {
    answer = { status: 422, body: errorBody("tracker_not_configured") };
    const error = await client()
      .dispatchOptions()
      .catch((caught: unknown) => caught);
    expect(isRingbackError(error) && error.code).toBe("tracker_not_configured");
    expect(isRingbackError(error) && error.status).toBe(422);
  });

  it("derives a code from the status when the body has no envelope", async () => {
    answer = { status: 404, body: "nope" };
    const error = await client()
      .listDispatches()
      .catch((caught: unknown) => caught);
    expect(isRingbackError(error) && error.code).toBe("not_found");
  });

  it("calls an answer of the wrong shape an internal error instead of trusting it", async () => {
    answer = { status: 200, body: { dispatches: "many" } };
    const error = await client()
      .listDispatches()
      .catch((caught: unknown) => caught);
    expect(isRingbackError(error) && error.code).toBe("internal_error");
  });

  it.each([
    ["computer_offline", 503],
    ["computer_timeout", 504],
  ] as const)("reports the relay's %s as the computer being offline", async (code, status) => {
    computer.relayRefuses(code);
    const error = await client()
      .trackerSettings()
      .catch((caught: unknown) => caught);
    expect(isRingbackError(error) && [error.code, error.status]).toEqual([code, status]);
    expect(isComputerOffline(error)).toBe(true);
    expect(isDaemonUnreachable(error)).toBe(true);
  });

  it("passes the relay's refusal of another key on as undecryptable_request, not as offline", async () => {
    computer.relayRefuses("undecryptable_request");
    const error = await client()
      .trackerSettings()
      .catch((caught: unknown) => caught);
    expect(isRingbackError(error) && error.code).toBe("undecryptable_request");
    expect(isDaemonUnreachable(error)).toBe(false);
  });

  it("keeps an unreachable relay a RelayError worth retrying", async () => {
    await computer.close();
    const error = await client()
      .trackerSettings()
      .catch((caught: unknown) => caught);
    expect(isRelayError(error) && error.status).toBeNull();
    expect(isDaemonUnreachable(error)).toBe(true);
    expect(isComputerOffline(error)).toBe(false);
  });
});

describe("the daemon client after the account's key was rotated", () => {
  it("follows the rotation once when the computer cannot open a request, and asks again with the new key", async () => {
    const newKey = generateKey();
    await using computer = await startStandInComputer(newKey, () => ({
      status: 200,
      body: { channel: null },
    }));
    const relay = new RelayClient({ serverUrl: computer.origin, deviceToken: "tok" });
    let catchUps = 0;
    const following = new DaemonClient(relay, key, "dev_pc", async () => {
      catchUps += 1;
      return newKey;
    });
    expect(await following.llmSettings()).toBeNull();
    expect(catchUps).toBe(1);

    const stuck = new DaemonClient(relay, key, "dev_pc", async () => null);
    const error = await stuck.llmSettings().catch((caught: unknown) => caught);
    expect(isRingbackError(error) && error.code).toBe("undecryptable_request");
  });
});
