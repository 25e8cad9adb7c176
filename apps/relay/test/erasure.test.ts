import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { eventBody, type InProcessRelay, inProcessRelay } from "./support/in-process-relay.js";

function isOnDisk(relay: InProcessRelay, text: string): boolean {
  return ["relay.db", "relay.db-wal"]
    .map((name) => join(relay.dataDir, name))
    .filter(existsSync)
    .some((file) => readFileSync(file).includes(text));
}

describe("erasing report and brief", () => {
  it("removes an ended call's ciphertext from the database file and its WAL", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const body = eventBody("ev1", { sealed: `e2e1.k.iv.${"erase-me-".repeat(600)}` });
    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body });
    // Long enough to spill onto overflow pages: those must be wiped too.
    expect(isOnDisk(relay, "erase-me-erase-me-")).toBe(true);
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: computer.deviceToken,
      body: { status: "rejected" },
    });
    expect(isOnDisk(relay, "erase-me-")).toBe(false);
  });

  it("removes an expired call's ciphertext from disk", async () => {
    await using relay = await inProcessRelay({ callExpiryMs: 60_000 });
    const computer = await relay.signUp();
    const body = eventBody("ev1", { sealed: "e2e1.k.iv.short-expiring-ciphertext" });
    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body });
    expect(isOnDisk(relay, body.sealed)).toBe(true);
    relay.clock.advance(60_000);
    await relay.relay.sweep();
    expect(isOnDisk(relay, body.sealed)).toBe(false);
  });

  it("removes a reply's ciphertext from disk once the daemon settled it", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
    const sealed = "e2e1.k.iv.reply-ciphertext-to-erase";
    await relay.request("POST", "/v1/calls/ev1/replies", {
      token: computer.deviceToken,
      body: { replyId: "r1", sealed },
    });
    expect(isOnDisk(relay, sealed)).toBe(true);
    await relay.store.settleReply({
      deviceId: computer.deviceId,
      replyId: "r1",
      status: "delivered",
      sealedReason: null,
      plaintextReason: null,
      now: relay.clock.now(),
    });
    expect(isOnDisk(relay, sealed)).toBe(false);
  });
});
