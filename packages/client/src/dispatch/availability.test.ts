import { RingbackError } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { FakeDispatchDaemon } from "../../test/dispatch-test-doubles.js";
import { NoComputerError } from "../daemon/computer-choice.js";
import { RelayError } from "../relay/relay-error.js";
import { availabilityOf } from "./availability.js";

describe("whether the computer can take a dispatch", () => {
  it("is ready with the options when the computer is online and its daemon answers", async () => {
    const daemon = new FakeDispatchDaemon();
    const result = await availabilityOf(daemon, "ws2");
    expect(result.availability).toBe("ready");
    expect(result.options?.workspaceId).toBe("ws2");
    expect(daemon.named("options")).toEqual(["ws2"]);
  });

  it("says no computer when the account has none to reach", async () => {
    const daemon = new FakeDispatchDaemon();
    daemon.client = () => Promise.reject(new NoComputerError());
    expect((await availabilityOf(daemon, null)).availability).toBe("no-computer");
  });

  it("says the relay cannot be reached when listing the computers fails on the network", async () => {
    const daemon = new FakeDispatchDaemon();
    daemon.computer = () => Promise.reject(new RelayError(null, null, "fetch failed"));
    expect((await availabilityOf(daemon, null)).availability).toBe("relay-unreachable");
  });

  it("passes any other refusal on with its code, for the screen to word, and the computer's message", async () => {
    const daemon = new FakeDispatchDaemon();
    daemon.refusal = new RingbackError("undecryptable_request", "Another key.");
    expect(await availabilityOf(daemon, null)).toMatchObject({
      availability: "unavailable",
      problem: { code: "undecryptable_request", isRelayUnreachable: false, message: "Another key." },
      options: null,
    });
  });

  it("keeps the relay's own protocol code, and says when the relay was out of reach", async () => {
    const daemon = new FakeDispatchDaemon();
    daemon.computer = () => Promise.reject(new RelayError(429, "rate_limited", "Slow down."));
    expect((await availabilityOf(daemon, null)).problem).toEqual({
      code: "rate_limited",
      isRelayUnreachable: false,
      message: "Slow down.",
    });
    daemon.computer = () => Promise.reject(new RelayError(null, null, "fetch failed"));
    expect((await availabilityOf(daemon, null)).problem).toMatchObject({
      code: null,
      isRelayUnreachable: true,
    });
  });
});
