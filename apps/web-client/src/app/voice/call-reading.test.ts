import {
  type CallRecord,
  type CallsModel,
  DEFAULT_VOICE_SETTINGS,
  type PreparedVoice,
  type VoicePlatform,
  withStatus,
} from "@ringback/client";
import { FORM_OF_ADDRESS_PLACEHOLDER } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor } from "../../../test/fixtures.js";
import { CallReading } from "./call-reading.js";
import { VoiceUnavailableError } from "./voice-problem.js";

/** A voice platform that counts what it prepared, and a reading over it with settings the test changes. */
function reading() {
  const prepared: PreparedVoice[] = [];
  const state = { isFailing: false, formOfAddress: "Alex" as string | null };
  const voice: VoicePlatform = {
    id: "test",
    listVoices: async () => [],
    prepare: async () => {
      if (state.isFailing) throw new VoiceUnavailableError({ kind: "no-voice" });
      const made: PreparedVoice = { speak: async () => "done", cancel: () => undefined };
      prepared.push(made);
      return made;
    },
  };
  const calls = new CallReading(voice, () => ({
    formOfAddress: state.formOfAddress,
    voice: DEFAULT_VOICE_SETTINGS,
  }));
  return { calls, prepared, state };
}

/** A call whose brief addresses the person, in the state given. */
const callFor = (state: CallRecord["status"]["state"]): CallRecord =>
  recordFor(
    { eventId: "e1", brief: { spoken: `${FORM_OF_ADDRESS_PLACEHOLDER}, the work is done.` } },
    { state },
  );

const spokenOf = (script: ReturnType<CallReading["script"]>) => JSON.stringify(script.main);

const modelOf = (record: CallRecord): CallsModel => ({
  records: { [record.eventId]: record },
  answeredIds: [],
});

describe("how calls are read aloud", () => {
  it("reads an answered call with the voice and script prepared before it rang", async () => {
    const { calls, prepared, state } = reading();
    const record = callFor("preparing");
    expect(await calls.prepare(record)).toBeNull();
    state.formOfAddress = null;
    expect(await calls.voiceFor(record)).toBe(prepared[0]);
    expect(prepared).toHaveLength(1);
    expect(spokenOf(calls.script(record))).toContain("Alex, the work is done.");
  });

  it("lets a call's prepared voice go once it is hung up here; read again, it is prepared anew", async () => {
    const { calls, prepared, state } = reading();
    const record = callFor("preparing");
    await calls.prepare(record);
    calls.followCalls(modelOf(withStatus(record, { state: "in-call" })));
    expect(await calls.voiceFor(record)).toBe(prepared[0]);
    state.formOfAddress = null;
    calls.followCalls(modelOf(withStatus(record, { state: "ended", outcome: "answered" })));
    expect(await calls.voiceFor(record)).toBe(prepared[1]);
    expect(spokenOf(calls.script(record))).toContain("boss, the work is done.");
  });

  it("keeps the prepared voice of a call that ended another way", async () => {
    const { calls, prepared } = reading();
    const record = callFor("preparing");
    await calls.prepare(record);
    calls.followCalls(modelOf(withStatus(record, { state: "ended", outcome: "answered-elsewhere" })));
    expect(await calls.voiceFor(record)).toBe(prepared[0]);
  });

  it("says why a voice cannot be prepared, and answers a call without one with no voice", async () => {
    const { calls, state } = reading();
    state.isFailing = true;
    const record = callFor("preparing");
    expect(await calls.prepare(record)).toEqual({ kind: "no-voice" });
    expect(await calls.voiceFor(record)).toBeNull();
  });
});
