import { type RingSound, toneSound } from "../audio/ring-sound.js";
import type { Ringer } from "../audio/ringer.js";
import { CLASSIC_TONE } from "../audio/tones.js";
import { builtinTone } from "../ringtones/builtin-tones.js";
import type { RingtoneFiles } from "../ringtones/ringtone-files.js";
import {
  DEFAULT_RINGTONE_CHOICES,
  fileRef,
  RINGTONE_ITEMS,
  type RingtoneChoices,
  type RingtoneItem,
  SILENT,
  type ToneRef,
  withoutTone,
} from "../ringtones/ringtone-items.js";
import type { RingtoneFileInfo } from "../ringtones/ringtone-list.js";
import type { LocalSettings } from "../storage/local-settings.js";
import { Observable } from "./observable.js";

export interface RingtonesView {
  readonly choices: RingtoneChoices;
  readonly files: readonly RingtoneFileInfo[];
}

/** How long Settings › Ringtones plays a tone when the user picks it. */
const RINGTONE_PREVIEW_MS = 4_000;

/**
 * Settings › Ringtones: which tone each item uses, the user's files, and the sound of each item ready to play at
 * once (a ringing call cannot wait for storage).
 */
export class RingtonesController extends Observable<RingtonesView> {
  readonly #sounds = new Map<RingtoneItem, RingSound>();
  #previewTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly settings: LocalSettings,
    private readonly files: RingtoneFiles,
    private readonly previewRinger: Ringer,
  ) {
    super({ choices: DEFAULT_RINGTONE_CHOICES, files: [] });
  }

  async load(): Promise<void> {
    const [choices, files] = await Promise.all([this.settings.loadRingtoneChoices(), this.files.list()]);
    this.update({ choices, files });
    await this.#resolveSounds();
  }

  /** The sound an item plays now: the chosen tone, or its default when the chosen file is gone. */
  sound(item: RingtoneItem): RingSound {
    return this.#sounds.get(item) ?? this.#fallback(item);
  }

  async choose(item: RingtoneItem, ref: ToneRef): Promise<void> {
    const choices = { ...this.view.choices, [item]: ref };
    await this.settings.saveRingtoneChoices(choices);
    this.update({ choices });
    await this.#resolveSounds();
  }

  async addFile(file: { name: string; type: string; data: ArrayBuffer }): Promise<RingtoneFileInfo> {
    const info = await this.files.add(file);
    this.update({ files: await this.files.list() });
    return info;
  }

  /** Deletes a user's tone; the items that used it go back to their defaults (the screen asked first). */
  async deleteFile(id: string): Promise<void> {
    const choices = withoutTone(this.view.choices, fileRef(id));
    await this.settings.saveRingtoneChoices(choices);
    await this.files.remove(id);
    this.update({ choices, files: await this.files.list() });
    await this.#resolveSounds();
  }

  /** Plays a tone for a few seconds (the page has had a tap, so sound is allowed). */
  async preview(ref: ToneRef): Promise<void> {
    this.stopPreview();
    await this.previewRinger.unlock();
    this.previewRinger.start(await this.#soundOf(ref, "callWaiting"));
    this.#previewTimer = setTimeout(() => this.stopPreview(), RINGTONE_PREVIEW_MS);
  }

  stopPreview(): void {
    clearTimeout(this.#previewTimer);
    this.previewRinger.stop();
  }

  async #resolveSounds(): Promise<void> {
    for (const item of RINGTONE_ITEMS)
      this.#sounds.set(item, await this.#soundOf(this.view.choices[item], item));
  }

  async #soundOf(ref: ToneRef, item: RingtoneItem): Promise<RingSound> {
    if (ref === SILENT) return { kind: "silent" };
    const [kind, id = ""] = ref.split(":");
    if (kind === "builtin") {
      const tone = builtinTone(id);
      return tone ? toneSound(tone) : this.#fallback(item);
    }
    const data = await this.files.read(id).catch(() => null);
    return data ? { kind: "file", id, data } : this.#fallback(item);
  }

  #fallback(item: RingtoneItem): RingSound {
    const [, id = ""] = DEFAULT_RINGTONE_CHOICES[item].split(":");
    return toneSound(builtinTone(id) ?? CLASSIC_TONE);
  }
}
