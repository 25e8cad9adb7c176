import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { type FakeModel, startFakeModel } from "@ringback/fake-model";
import { type SettingsRequestPlaintext, SettingsResultPlaintext } from "@ringback/protocol";
import { type LoopbackServer, listenOnLoopback, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDaemonConfig } from "./helpers/daemon-process.js";
import { type RelayedDaemon, startRelayedDaemon } from "./helpers/relayed-daemon.js";

/**
 * A device holding the account key (a phone someone picked up for a minute) moves the model's address to a server
 * it runs, or tests a model there, without giving an API key: the key saved on the computer must not go there.
 */
const SAVED_KEY = "sk-test-saved-hosted-model-key-0123456789";
const DEVICE_KEY = "sk-test-key-the-device-gave-9876543210";

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let relayed: RelayedDaemon;
let model: FakeModel;
/** The server the device points the address at: it records every Authorization header it is sent. */
let collector: LoopbackServer;
const collected: string[] = [];
let home: string;

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  home = join(directory.path, "home");
  await mkdir(home, { mode: 0o700 });
  model = await startFakeModel({ apiKey: SAVED_KEY });
  collector = await listenOnLoopback(
    createServer((request, response) => {
      collected.push(request.headers.authorization ?? "(none)");
      request.resume();
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":{"message":"no"}}');
    }),
  );
  const primary = { baseUrl: model.url, apiKey: SAVED_KEY, model: "fake-model" };
  relayed = await startRelayedDaemon(home, { llm: { primary } });
});

afterAll(async () => {
  await relayed?.close();
  await collector?.close();
  await model?.close();
  await directory?.remove();
});

async function fromPhone(request: SettingsRequestPlaintext): Promise<SettingsResultPlaintext> {
  return SettingsResultPlaintext.parse(await relayed.fromDevice("phone-token", request));
}

function errorOf(result: SettingsResultPlaintext): string | undefined {
  return (result.body as { error?: { code?: string } } | null)?.error?.code;
}

function collectorAddress(path = "/v1"): string {
  return `${collector.origin}${path}`;
}

describe("a saved model key and a new address, asked through the relay", () => {
  it("refuses to move the address to another origin without a key, and keeps the saved channel", async () => {
    const before = (await readDaemonConfig(home)).llm;
    const moved = await fromPhone({
      method: "PUT",
      path: "/llm/settings",
      body: { baseUrl: collectorAddress(), model: "fake-model" },
    });
    expect(moved.status).toBe(422);
    expect(errorOf(moved)).toBe("llm_key_required");
    expect((await readDaemonConfig(home)).llm).toEqual(before);
    expect(collected).toEqual([]);
  });

  it.each([
    ["another port", () => collectorAddress()],
    ["another scheme", () => model.url.replace("http:", "https:")],
    ["another host", () => model.url.replace("127.0.0.1", "localhost")],
  ])("never sends the saved key to %s in a test without a key", async (_label, address) => {
    const tested = await fromPhone({
      method: "POST",
      path: "/llm/test",
      body: { baseUrl: address(), model: "fake-model" },
    });
    expect(tested.status).toBe(422);
    expect(errorOf(tested)).toBe("llm_key_required");
    expect(collected.join("\n")).not.toContain(SAVED_KEY);
    expect(collected).toEqual([]);
  });

  it("sends a new origin only the key the device gave, and then keeps that key bound to it", async () => {
    const moved = await fromPhone({
      method: "PUT",
      path: "/llm/settings",
      body: { baseUrl: collectorAddress(), model: "fake-model", apiKey: DEVICE_KEY },
    });
    expect(moved.status).toBe(200);
    expect((await readDaemonConfig(home)).llm?.primary).toMatchObject({ apiKey: DEVICE_KEY });
    const tested = await fromPhone({ method: "POST", path: "/llm/test", body: {} });
    expect(tested.status).toBe(200);
    expect(collected).toEqual([`Bearer ${DEVICE_KEY}`]);
    // Back to the first origin without a key: the device's key does not follow there either.
    const back = await fromPhone({
      method: "PUT",
      path: "/llm/settings",
      body: { baseUrl: model.url, model: "fake-model" },
    });
    expect(errorOf(back)).toBe("llm_key_required");
    expect(model.chatRequests()).toEqual([]);
  });
});
