import { describe, expect, it } from "vitest";
import { DecisionError } from "../calls/needs-you.js";
import { NoComputerError } from "../daemon/computer-choice.js";
import { PairingLinkError } from "../pairing/pairing-link.js";
import { ModelAnswerError } from "../questions/model-problem.js";
import { DaemonRequestError } from "../relay/daemon-request.js";
import { OpenCallError } from "../relay/open-call.js";
import { isRelayError, RelayError } from "../relay/relay-error.js";
import { RingtoneFileError } from "../ringtones/ringtone-files.js";
import { ClientError, isClientError } from "./client-error.js";

const EVERY_ERROR: ReadonlyArray<[Error, string, string | null]> = [
  [
    new RelayError(409, "call_already_answered", "Another device answered."),
    "RelayError",
    "call_already_answered",
  ],
  [new RelayError(null, null, "The relay could not be reached."), "RelayError", null],
  [new OpenCallError("key_mismatch"), "OpenCallError", "key_mismatch"],
  [new PairingLinkError("invalid_code"), "PairingLinkError", "invalid_code"],
  [new DecisionError("stopped-waiting"), "DecisionError", "stopped-waiting"],
  [new RingtoneFileError("not_audio"), "RingtoneFileError", "not_audio"],
  [new ModelAnswerError({ kind: "answer-cut-off" }), "ModelAnswerError", "answer-cut-off"],
  [new NoComputerError(), "NoComputerError", "no_computer"],
  [new DaemonRequestError("The computer's answer has no status."), "DaemonRequestError", "invalid_answer"],
];

describe("the client's errors", () => {
  it.each(EVERY_ERROR)("%s is a ClientError named %s with code %s", (error, name, code) => {
    expect(error).toBeInstanceOf(ClientError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(isClientError(error)).toBe(true);
    expect(isClientError(error, code ?? undefined)).toBe(true);
    expect((error as ClientError).code).toBe(code);
  });

  it("keeps each class's own instanceof: one class's error is not another's", () => {
    expect(new OpenCallError("corrupted")).not.toBeInstanceOf(RelayError);
    expect(new PairingLinkError("invalid_key")).toBeInstanceOf(PairingLinkError);
    expect(isRelayError(new OpenCallError("corrupted"))).toBe(false);
  });

  it("recognises an error from another copy of the package by its brand, and only then", () => {
    const brand = Symbol.for("@ringback/client/ClientError");
    const foreignRelayError = Object.assign(new Error("The relay answered 503."), {
      name: "RelayError",
      code: null,
      status: 503,
      [brand]: true,
    });
    expect(isClientError(foreignRelayError)).toBe(true);
    expect(isRelayError(foreignRelayError)).toBe(true);
    expect(isClientError(Object.assign(new Error("x"), { code: "no_computer" }))).toBe(false);
    expect(isClientError(new NoComputerError(), "invalid_answer")).toBe(false);
    expect(isClientError(null)).toBe(false);
  });
});
