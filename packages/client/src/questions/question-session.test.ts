import { startFakeModel } from "@ringback/fake-model";
import { FORM_OF_ADDRESS_PLACEHOLDER } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import type { CallRecord } from "../calls/call-record.js";
import { briefScript } from "../reading/brief-script.js";
import { READER_START } from "../reading/reader.js";
import type { QuestionChannel } from "../storage/local-settings.js";
import type { VoicePlatform } from "../voice/voice-platform.js";
import { DEFAULT_VOICE_SETTINGS } from "../voice/voice-settings.js";
import { startProgress } from "./listening-progress.js";
import { QuestionSession } from "./question-session.js";

/** A voice platform that records what it was asked to read, in which language. */
function recordingVoice() {
  const spoken: { sentence: string; language: string }[] = [];
  const platform: VoicePlatform = {
    id: "recording",
    listVoices: async () => [],
    async prepare(_sentences, language) {
      return {
        speak: async (sentence) => {
          spoken.push({ sentence, language });
          return "done";
        },
        cancel: () => undefined,
      };
    },
  };
  return { platform, spoken };
}

function session(channel: QuestionChannel | null, formOfAddress: string | null = null) {
  let record: CallRecord = recordFor({ eventId: "e1", text: "Fixed the login bug.\nAll 42 tests pass." });
  const voice = recordingVoice();
  let pauses = 0;
  const questions = new QuestionSession({
    script: briefScript(record.payload, { formOfAddress }),
    record: () => record,
    progress: () => startProgress(READER_START),
    channel: async () => channel,
    formOfAddress,
    save: async (change) => {
      record = { ...record, ...change };
    },
    pauseReading: () => {
      pauses += 1;
    },
    voice: voice.platform,
    voiceSettings: () => DEFAULT_VOICE_SETTINGS,
  });
  return { questions, record: () => record, spoken: voice.spoken, pauses: () => pauses };
}

describe("an in-call question session", () => {
  it("says when no model is set up, and keeps nothing", async () => {
    const call = session(null);
    await call.questions.ask("What changed?");
    expect(call.questions.view.status).toBe("no-channel");
    expect(call.record().conversation).toEqual([]);
  });

  it("keeps the question and the streamed answer, reads the answer aloud in the brief's language, and pauses the brief", async () => {
    await using model = await startFakeModel({ apiKey: "sk-q" });
    const call = session({ baseUrl: model.url, apiKey: "sk-q", model: "fake-model" });
    await call.questions.ask("  Which tests pass?  ");
    expect(call.questions.view).toMatchObject({ status: "idle", partialAnswer: "", error: null });
    expect(call.record().conversation.map((entry) => [entry.role, entry.text])).toEqual([
      ["user", "Which tests pass?"],
      ["assistant", "Fake answer to: Which tests pass?"],
    ]);
    expect(call.pauses()).toBe(1);
    await expect
      .poll(() => call.spoken.map((said) => said.sentence).join(" "))
      .toBe("Fake answer to: Which tests pass?");
    expect(call.spoken.every((said) => said.language === "en-US")).toBe(true);
  });

  it("records a statement that settles an open question as a decision, and sends the conversation so far", async () => {
    await using model = await startFakeModel();
    const call = session({ baseUrl: model.url, apiKey: "any", model: "fake-model" });
    await call.questions.ask("What changed?");
    await call.questions.ask("Yes, ship it today.");
    expect(call.record().decisions).toEqual([
      expect.objectContaining({ text: "Yes, ship it today.", question: "Ship it today?" }),
    ]);
    const second = model.chatRequests()[1]?.body as { messages: { role: string; content: string }[] };
    expect(second.messages.slice(1).map((message) => message.role)).toEqual(["user", "assistant", "user"]);
  });

  it("puts the user's form of address into the answer", async () => {
    await using model = await startFakeModel();
    model.script({ kind: "content", content: `Done, ${FORM_OF_ADDRESS_PLACEHOLDER}.` });
    const call = session({ baseUrl: model.url, apiKey: "any", model: "fake-model" }, "Sam");
    await call.questions.ask("Is it done?");
    expect(call.record().conversation[1]?.text).toBe("Done, Sam.");
  });

  it("keeps the model's failure as a typed reason and keeps the question", async () => {
    await using model = await startFakeModel({ apiKey: "sk-right" });
    const call = session({ baseUrl: model.url, apiKey: "sk-wrong", model: "fake-model" });
    await call.questions.ask("What changed?");
    expect(call.questions.view.status).toBe("failed");
    expect(call.questions.view.error).toEqual({
      kind: "status",
      status: 401,
      detail: "Incorrect API key provided.",
    });
    // Plain data: the view's reason survives a copy as JSON.
    expect(JSON.parse(JSON.stringify(call.questions.view.error))).toEqual(call.questions.view.error);
    expect(call.record().conversation.map((entry) => entry.role)).toEqual(["user"]);
  });
});
