import { describe, expect, it } from "vitest";
import { StartError } from "../runtime/start-error.js";
import { parseDaemonPort } from "./daemon-port.js";

describe("parseDaemonPort", () => {
  it("takes 1024 to 65535, 0 (any free port) and nothing", () => {
    expect(parseDaemonPort("1024", "--port")).toBe(1024);
    expect(parseDaemonPort("8790", "--port")).toBe(8790);
    expect(parseDaemonPort("65535", "--port")).toBe(65535);
    expect(parseDaemonPort("0", "--port")).toBe(0);
    expect(parseDaemonPort(undefined, "--port")).toBeUndefined();
    expect(parseDaemonPort("", "RINGBACK_PORT")).toBeUndefined();
  });

  it.each([
    ["1", /--port 1 is one of the system's ports .*choose one from 1024 to 65535/],
    ["80", /--port 80 is one of the system's ports/],
    ["1023", /--port 1023 is one of the system's ports/],
    ["65536", /--port must be a port number from 1024 to 65535 .*not "65536"/],
    ["eighty", /--port must be a port number .*not "eighty"/],
    ["8790.5", /--port must be a port number/],
    ["-1", /--port must be a port number/],
    ["0x1f90", /--port must be a port number/],
    ["6000", /--port 6000 is a port Node\.js refuses to connect to .*"bad port"/],
  ])("refuses %s with the reason", (text, reason) => {
    expect(() => parseDaemonPort(text, "--port")).toThrow(StartError);
    expect(() => parseDaemonPort(text, "--port")).toThrow(reason);
  });
});
