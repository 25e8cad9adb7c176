import { describe, expect, it } from "vitest";
import type { DaemonLocation } from "./daemon-location.js";
import { describeMissingKey, describeOutcome } from "./describe-outcome.js";

const daemon: DaemonLocation = { dataDir: "/home/dev/.ringback", port: 8790, key: "k" };
const START = "start it with `ringback run` (or `pnpm start` in a clone)";

describe("describeOutcome says what happened, then what to do", () => {
  it("for a report the daemon took", () => {
    expect(describeOutcome({ kind: "answered", status: 202, isProven: true }, daemon, 5_000)).toBe(
      "sent: the daemon on 127.0.0.1:8790 took the report (202) and will ring your devices",
    );
  });

  it("for a daemon that is not running", () => {
    expect(describeOutcome({ kind: "refused" }, daemon, 5_000)).toBe(
      `not sent: the daemon is not running on 127.0.0.1:8790: ${START}`,
    );
    expect(describeMissingKey({ ...daemon, key: undefined })).toBe(
      `not sent: no local-api.key in /home/dev/.ringback, so no daemon has run with this data directory: ${START}`,
    );
  });

  it("for a refusal, quoting the daemon's own words", () => {
    const storageFull = {
      code: "storage_full",
      message: "The computer's disk is full: the report was not kept; free some space.",
    };
    expect(
      describeOutcome({ kind: "answered", status: 507, isProven: true, error: storageFull }, daemon, 5_000),
    ).toBe(
      "not sent: the daemon on 127.0.0.1:8790 answered 507 storage_full: The computer's disk is full: the report " +
        "was not kept; free some space.: see the daemon's log, or run `ringback doctor`",
    );
    expect(describeOutcome({ kind: "answered", status: 500, isProven: true }, daemon, 5_000)).toBe(
      "not sent: the daemon on 127.0.0.1:8790 answered 500: see the daemon's log, or run `ringback doctor`",
    );
  });

  it("for an answer without the daemon's proof: the report may not have reached the daemon", () => {
    expect(describeOutcome({ kind: "answered", status: 202, isProven: false }, daemon, 5_000)).toBe(
      "not proven, so maybe not sent: what answered on 127.0.0.1:8790 (202) did not prove it is your Ringback " +
        "daemon: a daemon older than this hook (update it), a daemon with another key than " +
        "/home/dev/.ringback/local-api.key, or another program on this port (it never got the key); see the " +
        "daemon's log, or run `ringback doctor`",
    );
  });

  it("for a key the daemon does not know, naming the file it came from", () => {
    const unauthorized = { code: "unauthorized", message: "The local API key is missing or wrong." };
    expect(
      describeOutcome({ kind: "answered", status: 401, isProven: true, error: unauthorized }, daemon, 5_000),
    ).toBe(
      "not sent: the daemon on 127.0.0.1:8790 answered 401 unauthorized: The local API key is missing or wrong. " +
        "(the key in /home/dev/.ringback/local-api.key is not this daemon's): run the hook with the daemon's " +
        "RINGBACK_HOME",
    );
  });

  it("for a daemon that does not answer, hangs up, or is something else", () => {
    expect(describeOutcome({ kind: "timed-out" }, daemon, 5_000)).toBe(
      "not sent: the daemon on 127.0.0.1:8790 did not answer within the hook's 5 s budget: see the daemon's log, " +
        "or run `ringback doctor`",
    );
    expect(describeOutcome({ kind: "closed" }, daemon, 5_000)).toBe(
      "not sent: the daemon on 127.0.0.1:8790 closed the connection without answering: see the daemon's log, or " +
        "run `ringback doctor`",
    );
    expect(describeOutcome({ kind: "not-http" }, daemon, 5_000)).toBe(
      "not sent: what listens on 127.0.0.1:8790 is not the Ringback daemon (its answer is not HTTP): check " +
        "localPort in /home/dev/.ringback/daemon.json, then run `ringback doctor`",
    );
    expect(describeOutcome({ kind: "failed", reason: "read ECONNRESET" }, daemon, 5_000)).toBe(
      "not sent: the connection to 127.0.0.1:8790 failed (read ECONNRESET): see the daemon's log, or run " +
        "`ringback doctor`",
    );
  });
});
