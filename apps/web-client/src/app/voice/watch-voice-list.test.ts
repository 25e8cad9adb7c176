import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { VOICES_WAIT_MS, watchVoiceList } from "./browser-speech.js";

/** A platform's voice list: empty until `load` is called, like Chromium's before its first `voiceschanged`. */
class FakeVoiceList extends EventTarget {
  voices: SpeechSynthesisVoice[] = [];
  asked = 0;
  getVoices(): SpeechSynthesisVoice[] {
    this.asked++;
    return this.voices;
  }
  load(names: string[]): void {
    this.voices = names.map((name) => ({
      name,
      voiceURI: name,
      lang: "en-US",
      default: false,
      localService: true,
    }));
    this.dispatchEvent(new Event("voiceschanged"));
  }
}

/** Resolves with the milliseconds of fake time that passed before `promise` settled. */
async function fakeMsUntil<T>(promise: Promise<T>): Promise<{ value: T; waitedMs: number }> {
  const start = Date.now();
  let settled: { value: T } | undefined;
  void promise.then((value) => {
    settled = { value };
  });
  await vi.advanceTimersByTimeAsync(0);
  while (!settled) await vi.advanceTimersByTimeAsync(10);
  return { value: settled.value, waitedMs: Date.now() - start };
}

describe("the browser's voice list", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("on a platform with no voices, only a call right at start waits, and never past the bound", async () => {
    const platform = new FakeVoiceList();
    const voices = watchVoiceList(platform);
    const first = await fakeMsUntil(voices());
    expect(first.value).toEqual([]);
    expect(first.waitedMs).toBeGreaterThanOrEqual(VOICES_WAIT_MS - 10);
    expect(first.waitedMs).toBeLessThanOrEqual(VOICES_WAIT_MS + 10);
    const later = await fakeMsUntil(voices());
    expect(later).toEqual({ value: [], waitedMs: 0 });
  });

  it("a call that comes after the wait has run out does not wait at all", async () => {
    const voices = watchVoiceList(new FakeVoiceList());
    await vi.advanceTimersByTimeAsync(VOICES_WAIT_MS);
    expect((await fakeMsUntil(voices())).waitedMs).toBe(0);
  });

  it("uses the list as soon as the platform gives it, and a list that comes late all the same", async () => {
    const platform = new FakeVoiceList();
    const voices = watchVoiceList(platform);
    const pending = fakeMsUntil(voices());
    await vi.advanceTimersByTimeAsync(200);
    platform.load(["Samantha"]);
    const first = await pending;
    expect(first.value.map((voice) => voice.name)).toEqual(["Samantha"]);
    expect(first.waitedMs).toBeLessThan(VOICES_WAIT_MS);

    const silent = new FakeVoiceList();
    const silentVoices = watchVoiceList(silent);
    await vi.advanceTimersByTimeAsync(VOICES_WAIT_MS * 2);
    silent.load(["Daniel"]);
    expect((await silentVoices()).map((voice) => voice.name)).toEqual(["Daniel"]);
  });

  it("does not wait when the platform has its voices from the start", async () => {
    const platform = new FakeVoiceList();
    platform.voices = [{ name: "Alex", voiceURI: "Alex", lang: "en-US", default: true, localService: true }];
    const result = await fakeMsUntil(watchVoiceList(platform)());
    expect(result.waitedMs).toBe(0);
    expect(result.value.map((voice) => voice.name)).toEqual(["Alex"]);
  });
});
