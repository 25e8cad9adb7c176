import { createServer } from "node:http";
import { sealKeyRotation } from "@ringback/client";
import { aad, type E2eKey, generateKey, keyId, openJson, parseKey, sealJson } from "@ringback/e2e-crypto";
import {
  type DaemonToRelayMessage,
  type KeyRotationNotice,
  SettingsResultPlaintext,
} from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { followE2eKeyRotations } from "../src/runtime/keys/e2e-key.js";
import { KeyRotationFollower } from "../src/runtime/relay-link/key-rotation-follower.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";
import { askRelayed, relayContext } from "./helpers/relayed-request.js";

let daemon: InProcessDaemon;
let oldKey: E2eKey;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
  oldKey = currentKey();
});

afterEach(async () => {
  await daemon.close();
});

function currentKey(): E2eKey {
  const e2e = daemon.config.config.e2e;
  if (!e2e) throw new Error("no key");
  return parseKey(e2e.key);
}

/** A relayed request sealed with `sealingKey`, answered as the relay link answers it: with the daemon's key now. */
async function relayed(
  request: Parameters<typeof askRelayed>[1],
  sealingKey: E2eKey,
): Promise<DaemonToRelayMessage> {
  return askRelayed(await relayContext(daemon, currentKey()), request, sealingKey);
}

async function opened(message: DaemonToRelayMessage, key: E2eKey) {
  if (message.type !== "settings-result") throw new Error(`expected a settings-result, got ${message.type}`);
  return SettingsResultPlaintext.parse(
    await openJson(key, aad.settingsResult(message.requestId), message.sealed),
  );
}

describe("key rotation on the computer", () => {
  it("moves to the new key a device hands it through the settings path, and then refuses the old key", async () => {
    const rotation = await sealKeyRotation(oldKey, { removedDeviceId: "dev-removed-phone" });
    const answer = await relayed({ method: "POST", path: "/key-rotation", body: rotation.notice }, oldKey);
    // Answered under the key the request came with: the device that sent it still opens it.
    expect(await opened(answer, oldKey)).toEqual({
      status: 200,
      body: { rotated: true, keyId: await keyId(rotation.next) },
    });
    expect(currentKey()).toBe(rotation.next);
    expect(daemon.config.config.e2e?.source).toBe("random");

    const withOldKey = await relayed({ method: "GET", path: "/brief/language" }, oldKey);
    expect(withOldKey).toMatchObject({ type: "settings-error", error: { code: "undecryptable_request" } });
    const withNewKey = await relayed({ method: "GET", path: "/brief/language" }, rotation.next);
    expect((await opened(withNewKey, rotation.next)).status).toBe(200);
  });

  it("catches up over several rotations from the relay's notices, and ignores notices for keys it does not hold", async () => {
    const first = await sealKeyRotation(oldKey, { removedDeviceId: "dev-a" });
    const second = await sealKeyRotation(first.next, { removedDeviceId: "dev-b" });
    const foreign = await sealKeyRotation(generateKey(), { removedDeviceId: null });
    const applied = await followE2eKeyRotations(
      daemon.config,
      [foreign.notice, second.notice, first.notice],
      new Date(),
    );
    expect(applied).toEqual({ rotated: true, keyId: await keyId(second.next) });
    expect(currentKey()).toBe(second.next);

    expect(await followE2eKeyRotations(daemon.config, [first.notice, foreign.notice], new Date())).toEqual({
      rotated: false,
      keyId: await keyId(second.next),
    });
    expect(currentKey()).toBe(second.next);
  });

  it("takes no notice a holder of its key did not seal: one under another key changes nothing", async () => {
    const stranger = await sealKeyRotation(generateKey(), { removedDeviceId: null });
    const answer = await relayed({ method: "POST", path: "/key-rotation", body: stranger.notice }, oldKey);
    expect(await opened(answer, oldKey)).toMatchObject({ status: 200, body: { rotated: false } });
    expect(currentKey()).toBe(oldKey);
  });
});

/** The relay's `GET /v1/key-rotations` as a stand-in: the notices it holds, and how often it was read. */
async function startNoticeRelay(notices: KeyRotationNotice[]) {
  const reads: string[] = [];
  const server = createServer((request, response) => {
    reads.push(request.headers.authorization ?? "");
    const rotations = notices.map((notice) => ({ ...notice, createdAt: new Date(0).toISOString() }));
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ rotations }));
  });
  return { ...(await listenOnLoopback(server)), reads };
}

/** The daemon's follower of the notices at `serverUrl`, as the computer "computer-token". */
function followerAt(serverUrl: string): KeyRotationFollower {
  return new KeyRotationFollower({
    config: daemon.config,
    log: () => undefined,
    serverUrl,
    deviceToken: "computer-token",
  });
}

describe("the computer's link following key rotations", () => {
  it("reads the relay's notices as this computer, and again for a message under a key it does not hold (at most once in a while)", async () => {
    const rotation = await sealKeyRotation(oldKey, { removedDeviceId: "dev-removed-phone" });
    const relay = await startNoticeRelay([]);
    try {
      const follower = followerAt(relay.origin);
      await follower.follow();
      expect(relay.reads).toEqual(["Bearer computer-token"]);
      expect(currentKey()).toBe(oldKey);

      // A request sealed under the current key prompts nothing; one under the new key a read, once.
      const underOld = await sealJson(oldKey, aad.settingsResult("x"), {});
      await follower.followIfSealedUnderAnotherKey(underOld);
      expect(relay.reads).toHaveLength(1);
      const underNew = await sealJson(rotation.next, aad.settingsResult("y"), {});
      await follower.followIfSealedUnderAnotherKey(underNew);
      expect(relay.reads).toHaveLength(2);
      await follower.followIfSealedUnderAnotherKey(underNew);
      expect(relay.reads).toHaveLength(2);
    } finally {
      await relay.close();
    }
  });

  it("moves to the newest key from the notices it reads", async () => {
    const rotation = await sealKeyRotation(oldKey, { removedDeviceId: "dev-removed-phone" });
    const relay = await startNoticeRelay([rotation.notice]);
    try {
      const follower = followerAt(relay.origin);
      await follower.follow();
      expect(currentKey()).toBe(rotation.next);
    } finally {
      await relay.close();
    }
  });
});
