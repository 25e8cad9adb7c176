import { LOG_VALUE_MAX_CHARS } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { ChildRelay } from "./support/child-relay.js";

/** A line the relay itself writes when a device is removed: what a forger would like the log to show. */
const FORGED = "ringback relay: device removed device=dev_victim by=dev_owner";
/** Line break, carriage return, a terminal escape that clears the screen, a bidi override: percent-encoded. */
const INJECTED = `%0D%0A${encodeURIComponent(FORGED)}%1B%5B2J%E2%80%AE`;

describe("log injection through request paths (the relay process)", () => {
  it("keeps every request on one escaped, bounded line and logs unmatched routes as such", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({ dataDir: data.path });
    const long = "A".repeat(10_000);
    const attacks = [
      { method: "GET", path: `/v1/${INJECTED}` },
      { method: "POST", path: `/v1/no-such-route/${INJECTED}` },
      { method: "GET", path: `/${INJECTED}` },
      { method: "DELETE", path: `/${INJECTED}${long}` },
    ];
    for (const { method, path } of attacks) await fetch(new URL(path, relay.url), { method });

    // Each request gets its line (ending in its status and time: the only requests are these four); the relay's
    // stderr is read until the last one is in.
    const lines = await eventually(
      () => {
        const all = relay.stderr.split("\n").slice(0, -1);
        return all.filter((line) => / \d{3} \d+ms$/.test(line)).length >= attacks.length ? all : undefined;
      },
      { what: "the relay to log the four requests" },
    );

    for (const line of lines) expect(line.startsWith("ringback relay: ")).toBe(true);
    expect(lines.filter((line) => line === FORGED || line.startsWith(`${FORGED} `))).toEqual([]);
    for (const raw of ["\r", "\x1b", "\u202e"]) expect(relay.stderr).not.toContain(raw);
    // Unmatched API routes say so, with the path quoted as sent (percent-encoding kept).
    expect(lines).toContainEqual(
      expect.stringMatching(/^ringback relay: GET unmatched "\/v1\/%0D%0Aringback%20relay/),
    );
    expect(lines).toContainEqual(
      expect.stringMatching(/^ringback relay: POST unmatched "\/v1\/no-such-route\/%0D%0A.*" 404 \d+ms$/),
    );
    // A path the web app's fallback answers is still one line, the path on the wire.
    expect(lines).toContainEqual(
      expect.stringMatching(/^ringback relay: GET \/%0D%0Aringback%20relay.* 200 /),
    );
    // The 10,000-character path is cut, and the line says by how much.
    const longLine = lines.find((line) => line.includes("DELETE"));
    expect(longLine).toMatch(/\.\.\.\(\+\d+ chars\)" 404 \d+ms$/);
    expect(longLine?.length).toBeLessThan(LOG_VALUE_MAX_CHARS + 100);
  });
});
