import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import { createServer as createTcpServer } from "node:net";
import { join } from "node:path";
import { type FakeModel, startFakeModel } from "@ringback/fake-model";
import { LlmTestResponse, type SettingsRequestPlaintext } from "@ringback/protocol";
import { freePort, type LoopbackServer, listenOnLoopback, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LLM_TEST_FAILURE_MIN_MS, RELAYED_LLM_TEST_FAILURE } from "../src/runtime/model/llm-test.js";
import {
  LLM_TESTS_PER_MINUTE_MAX,
  LOCAL_LLM_TESTS_PER_MINUTE_MAX,
} from "../src/runtime/model/model-test/tests-per-minute.js";
import { readDaemonConfig } from "./helpers/daemon-process.js";
import { type RelayedDaemon, startRelayedDaemon } from "./helpers/relayed-daemon.js";

/**
 * A device holding the account key uses the model connection test to probe what the computer reaches: which ports
 * are open, or the cloud metadata service. It gets a few tests a minute, one answer for every failure (never sooner
 * than the floor), and no connection at all to a link-local or metadata address.
 */
let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let relayed: RelayedDaemon;
let model: FakeModel;
let home: string;
/** An open port that is not a model: it answers 404 at once. */
let openPort: LoopbackServer;
/** An open port that takes the connection and closes it without a word. */
let silentPort: { port: number; close(): Promise<void> };

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  home = join(directory.path, "home");
  await mkdir(home, { mode: 0o700 });
  model = await startFakeModel({ apiKey: "sk-test-model-key-0123456789" });
  openPort = await listenOnLoopback(
    createServer((request, response) => {
      request.resume();
      response.writeHead(404).end("not here");
    }),
  );
  const silent = createTcpServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = {
    port: (silent.address() as { port: number }).port,
    close: () => new Promise((resolve) => silent.close(() => resolve())),
  };
  relayed = await startRelayedDaemon(home);
});

afterAll(async () => {
  await relayed?.close();
  await openPort?.close();
  await silentPort?.close();
  await model?.close();
  await directory?.remove();
});

function fromDevice(deviceToken: string, request: SettingsRequestPlaintext) {
  return relayed.fromDevice(deviceToken, request);
}

const testAt = (baseUrl: string, apiKey = "sk-test-any-key-0123456789") => ({
  method: "POST" as const,
  path: "/llm/test",
  body: { baseUrl, apiKey, model: "fake-model" },
});

describe("the model test as a probe of the computer's network", () => {
  it.each([
    ["the metadata address", "http://169.254.169.254/latest/meta-data"],
    ["another link-local address", "http://169.254.10.1:8080/v1"],
    ["the metadata address written as a number", "http://2852039166/v1"],
    ["the IPv6 metadata address", "http://[fd00:ec2::254]/v1"],
    ["the link-local IPv6 network", "http://[fe80::1]:11434/v1"],
    ["Google's metadata name", "http://metadata.google.internal/computeMetadata/v1"],
  ])("refuses %s outright with 403 model_address_refused, to test or to save", async (_label, address) => {
    const tested = await fromDevice("probe-token", testAt(address));
    expect(tested.status).toBe(403);
    expect(tested.body).toMatchObject({ error: { code: "model_address_refused" } });
    const saved = await fromDevice("saver-token", {
      method: "PUT",
      path: "/llm/settings",
      body: { baseUrl: address, apiKey: "sk-test-any-key-0123456789", model: "m" },
    });
    expect(saved.status).toBe(403);
    expect(saved.body).toMatchObject({ error: { code: "model_address_refused" } });
    expect((await readDaemonConfig(home)).llm).toBeUndefined();
  });

  it("answers a closed port, an open one and one that hangs up alike, and none sooner than the floor", async () => {
    const closed = await freePort();
    const addresses = [
      `http://127.0.0.1:${closed}/v1`,
      `${openPort.origin}/v1`,
      `http://127.0.0.1:${silentPort.port}/v1`,
    ];
    const answers: unknown[] = [];
    for (const [index, address] of addresses.entries()) {
      const startedAt = performance.now();
      const answer = await fromDevice(`port-${index}-token`, testAt(address));
      expect(performance.now() - startedAt, address).toBeGreaterThanOrEqual(LLM_TEST_FAILURE_MIN_MS);
      expect(answer.status).toBe(200);
      answers.push(LlmTestResponse.parse(answer.body));
    }
    const failed = { ok: false, error: { code: "llm_call_failed", message: RELAYED_LLM_TEST_FAILURE } };
    expect(answers).toEqual([failed, failed, failed]);
  });

  it(`runs ${LLM_TESTS_PER_MINUTE_MAX} tests a minute per device, then 429 rate_limited; others are not held up`, async () => {
    const working = testAt(model.url, "sk-test-model-key-0123456789");
    for (let test = 0; test < LLM_TESTS_PER_MINUTE_MAX; test += 1) {
      expect((await fromDevice("scanner-token", working)).status).toBe(200);
    }
    const refused = await fromDevice("scanner-token", working);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      error: { code: "rate_limited", message: expect.stringMatching(/try again in \d+ s/) },
    });
    expect((await fromDevice("tablet-token", working)).status).toBe(200);

    // The callers on this computer are one device too (with a limit of its own), told when to try again.
    const local = () =>
      fetch(`${relayed.daemon.url}/llm/test`, {
        method: "POST",
        headers: { authorization: `Bearer ${relayed.localKey}`, "content-type": "application/json" },
        body: JSON.stringify(working.body),
      });
    for (let test = 0; test < LOCAL_LLM_TESTS_PER_MINUTE_MAX; test += 1)
      expect((await local()).status).toBe(200);
    const held = await local();
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(held.headers.get("retry-after"))).toBeLessThanOrEqual(60);
  });
});
