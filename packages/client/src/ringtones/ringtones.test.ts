import { RINGTONE_FILE_MAX_BYTES } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { CLASSIC_TONE, NEEDS_YOU_TONE, RINGBACK_TONE } from "../audio/tones.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { BUILTIN_TONES } from "./builtin-tones.js";
import { RingtoneFileError, RingtoneFiles } from "./ringtone-files.js";
import {
  DEFAULT_RINGTONE_CHOICES,
  fileRef,
  itemsUsing,
  readRingtoneChoices,
  ringtoneItemOf,
  SILENT,
  withoutTone,
} from "./ringtone-items.js";
import { type RingtoneFileInfo, ringtoneList } from "./ringtone-list.js";

const userTones = (count: number): RingtoneFileInfo[] =>
  Array.from({ length: count }, (_, index) => ({
    id: `t${index}`,
    name: `Tone ${index}`,
    type: "audio/mpeg",
    size: 1000,
    addedAt: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
  }));
const list = (count: number, options: { showAll?: boolean; query?: string } = {}) =>
  ringtoneList(BUILTIN_TONES, userTones(count), {
    showAll: options.showAll ?? false,
    query: options.query ?? "",
    builtinName: (tone) => tone.id,
  });

describe("ringtones", () => {
  it("has 7 built-in tones; incoming rings classic, needs-you its own bursts, call waiting the 450 Hz ringback", () => {
    expect(BUILTIN_TONES).toHaveLength(7);
    expect(new Set(BUILTIN_TONES.map((tone) => tone.id)).size).toBe(7);
    expect(readRingtoneChoices(undefined)).toEqual({
      incoming: `builtin:${CLASSIC_TONE.id}`,
      needsYou: `builtin:${NEEDS_YOU_TONE.id}`,
      callWaiting: `builtin:${RINGBACK_TONE.id}`,
    });
    // Choices stored before the needs-you item keep theirs and get its default.
    expect(readRingtoneChoices({ incoming: fileRef("t1"), callWaiting: SILENT })).toEqual({
      incoming: fileRef("t1"),
      needsYou: `builtin:${NEEDS_YOU_TONE.id}`,
      callWaiting: SILENT,
    });
  });

  it("rings a needs-you call with a cadence unlike the finished call's", () => {
    expect(NEEDS_YOU_TONE.cadence).not.toEqual(CLASSIC_TONE.cadence);
    expect(NEEDS_YOU_TONE.frequenciesHz).not.toEqual(CLASSIC_TONE.frequenciesHz);
    expect(ringtoneItemOf({ payload: { needsYou: { toolName: "Bash" } } })).toBe("needsYou");
    expect(ringtoneItemOf({ payload: {} })).toBe("incoming");
  });

  it("lets call waiting be silent, but never the incoming or the needs-you call", () => {
    expect(readRingtoneChoices({ incoming: SILENT, needsYou: SILENT, callWaiting: SILENT })).toEqual({
      incoming: DEFAULT_RINGTONE_CHOICES.incoming,
      needsYou: DEFAULT_RINGTONE_CHOICES.needsYou,
      callWaiting: SILENT,
    });
  });

  it("lists the newest 5 user tones and keeps the rest behind show all", () => {
    const view = list(7);
    expect(view.files.map((file) => file.id)).toEqual(["t6", "t5", "t4", "t3", "t2"]);
    expect(view.hiddenCount).toBe(2);
    expect(list(7, { showAll: true }).files).toHaveLength(7);
  });

  it("shows a search box only above 8 tones, and searches all of them", () => {
    expect(list(1).hasSearch).toBe(false);
    expect(list(2).hasSearch).toBe(true);
    const found = list(9, { query: "tone 1" });
    expect(found.files.map((file) => file.id)).toEqual(["t1"]);
    expect(found.builtins).toEqual([]);
    expect(list(1, { query: "tone 1" }).files).toHaveLength(1);
  });

  it("resets the items using a deleted tone to their defaults", () => {
    const choices = { incoming: fileRef("t1"), needsYou: fileRef("t1"), callWaiting: fileRef("t1") };
    expect(itemsUsing(choices, fileRef("t1"))).toEqual(["incoming", "needsYou", "callWaiting"]);
    expect(withoutTone(choices, fileRef("t1"))).toEqual(DEFAULT_RINGTONE_CHOICES);
    expect(withoutTone(choices, fileRef("t2"))).toEqual(choices);
  });

  it("keeps user files on the device, refusing files over 10 MB and files that are not audio", async () => {
    const files = new RingtoneFiles(createMemoryStore());
    const data = new Uint8Array([1, 2, 3]).buffer;
    const added = await files.add({ name: "bells.mp3", type: "audio/mpeg", data });
    expect(added).toMatchObject({ name: "bells", size: 3 });
    expect(new Uint8Array((await files.read(added.id))!)).toEqual(new Uint8Array([1, 2, 3]));
    await expect(
      files.add({ name: "big.mp3", type: "audio/mpeg", data: new ArrayBuffer(RINGTONE_FILE_MAX_BYTES + 1) }),
    ).rejects.toEqual(new RingtoneFileError("too_large"));
    await expect(files.add({ name: "x.txt", type: "text/plain", data })).rejects.toEqual(
      new RingtoneFileError("not_audio"),
    );
    await files.remove(added.id);
    expect(await files.list()).toEqual([]);
  });
});
