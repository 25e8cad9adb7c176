import { mkdir } from "node:fs/promises";
import { createServer } from "node:http";
import { join } from "node:path";
import { LlmTestResponse } from "@ringback/protocol";
import { type LoopbackServer, listenOnLoopback, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RELAYED_LLM_TEST_FAILURE } from "../src/runtime/model/llm-test.js";
import { type RelayedDaemon, startRelayedDaemon } from "./helpers/relayed-daemon.js";

/**
 * A device holding the key points the relayed model test at an address on the computer's network (a router's admin
 * page, a metadata service, anything only the computer reaches) and reads back what it answered. The daemon runs the
 * test (the user may test a model from the phone) but tells a device only whether it worked (and, when it did, how long it took).
 */
const INTERNAL_SECRET = "admin-session=7f3a9c internal-only";

let directory: Awaited<ReturnType<typeof makeTemporaryDirectory>>;
let relayed: RelayedDaemon;
let internal: LoopbackServer;
/** What the internal service was sent. */
const reached: string[] = [];

beforeAll(async () => {
  directory = await makeTemporaryDirectory();
  const home = join(directory.path, "home");
  await mkdir(home, { mode: 0o700 });
  // A service only the computer reaches: it answers with something the device must not read.
  internal = await listenOnLoopback(
    createServer((request, response) => {
      reached.push(`${request.method} ${request.url}`);
      request.resume();
      response.writeHead(403, { "content-type": "text/plain" }).end(`Forbidden: ${INTERNAL_SECRET}`);
    }),
  );
  relayed = await startRelayedDaemon(home);
});

afterAll(async () => {
  await relayed?.close();
  await internal?.close();
  await directory?.remove();
});

const probe = () => ({ baseUrl: `${internal.origin}/admin`, apiKey: "anything", model: "probe" });

describe("the model connection test asked through the relay", () => {
  it("says only that it failed, never what the address answered nor how long it took", async () => {
    const answer = await relayed.fromDevice("phone-token", {
      method: "POST",
      path: "/llm/test",
      body: probe(),
    });
    expect(reached).toEqual(["POST /admin/chat/completions"]);
    expect(answer.status).toBe(200);
    expect(LlmTestResponse.parse(answer.body)).toEqual({
      ok: false,
      error: { code: "llm_call_failed", message: RELAYED_LLM_TEST_FAILURE },
    });
    expect(JSON.stringify(answer.body)).not.toMatch(/admin-session|Forbidden|403/);
  });

  it("still tells the computer's own user (the local interface, the log) why it failed", async () => {
    const response = await fetch(`${relayed.daemon.url}/llm/test`, {
      method: "POST",
      headers: { authorization: `Bearer ${relayed.localKey}`, "content-type": "application/json" },
      body: JSON.stringify(probe()),
    });
    const local = LlmTestResponse.parse(await response.json());
    expect(local.ok).toBe(false);
    expect(local.ok === false && local.error.message).toMatch(/403/);
    expect(relayed.daemon.stderr()).toMatch(/language model test: probe .* failed: .*403/);
  });
});
