import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { DEFAULT_VOICE_SETTINGS, type SpeechEndpoint } from "@ringback/client";
import { describe, expect, it } from "vitest";
import { createBrowserSpeech } from "./browser-speech.js";
import { createSpeechEndpointPlatform, synthesizeSpeech } from "./speech-endpoint.js";
import { VoiceUnavailableError, voiceProblemOf } from "./voice-problem.js";

const endpoint = (baseUrl: string): SpeechEndpoint => ({
  baseUrl,
  apiKey: "sk-speech",
  model: "tts-1",
  hasSpeed: true,
});

/** A speech platform on a real socket that answers every request with `status`. */
async function platformAnswering(status: number) {
  const server = createServer((_request, response) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify({ error: { message: "busy" } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function failureOf(attempt: Promise<unknown>) {
  const error = await attempt.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(VoiceUnavailableError);
  return voiceProblemOf(error);
}

describe("the voice platforms' failures, as typed reasons", () => {
  it("a speech platform that answers an error status", async () => {
    await using platform = await platformAnswering(503);
    expect(await failureOf(synthesizeSpeech(endpoint(platform.url), "Hello.", "alloy", 1))).toEqual({
      kind: "platform-status",
      status: 503,
    });
  });

  it("a speech platform that cannot be reached", async () => {
    const platform = await platformAnswering(200);
    const address = platform.url;
    await platform[Symbol.asyncDispose]();
    expect(await failureOf(synthesizeSpeech(endpoint(address), "Hello.", "alloy", 1))).toEqual({
      kind: "platform-unreachable",
      address,
    });
  });

  it("a speech platform chosen but not set up", async () => {
    const platform = createSpeechEndpointPlatform();
    expect(
      await failureOf(
        platform.prepare(["Hello."], "en-US", { ...DEFAULT_VOICE_SETTINGS, platform: "speech-endpoint" }),
      ),
    ).toEqual({ kind: "no-platform" });
  });

  it("a browser without speech synthesis", async () => {
    expect(
      await failureOf(createBrowserSpeech().prepare(["Hello."], "en-US", DEFAULT_VOICE_SETTINGS)),
    ).toEqual({ kind: "no-synthesis" });
  });
});
