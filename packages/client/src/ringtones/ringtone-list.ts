import type { Tone } from "../audio/tones.js";

/** A user's ringtone file as listed (the audio itself is read only to play it). */
export interface RingtoneFileInfo {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly size: number;
  readonly addedAt: string;
}

/** The newest user tones listed before "show all". */
const NEWEST_USER_TONES_SHOWN = 5;
/** A search box appears above this many tones. */
const TONES_BEFORE_SEARCH = 8;

export interface RingtoneListView {
  readonly builtins: readonly Tone[];
  /** User tones, newest first: the newest 5 unless "show all" (or a search) is on. */
  readonly files: readonly RingtoneFileInfo[];
  /** User tones behind "show all". */
  readonly hiddenCount: number;
  readonly hasSearch: boolean;
}

/**
 * The tone list of a ringtone item: the built-in tones, then the user's tones newest first (5, the rest behind
 * "show all"); with more than 8 tones in all, a search box filters both by name.
 */
export function ringtoneList(
  builtins: readonly Tone[],
  files: readonly RingtoneFileInfo[],
  options: { showAll: boolean; query: string; builtinName: (tone: Tone) => string },
): RingtoneListView {
  const hasSearch = builtins.length + files.length > TONES_BEFORE_SEARCH;
  const query = hasSearch ? options.query.trim().toLocaleLowerCase() : "";
  const matches = (name: string) => query === "" || name.toLocaleLowerCase().includes(query);
  const newestFirst = [...files]
    .sort((a, b) => b.addedAt.localeCompare(a.addedAt) || a.id.localeCompare(b.id))
    .filter((file) => matches(file.name));
  const isEverythingShown = options.showAll || query !== "";
  const shown = isEverythingShown ? newestFirst : newestFirst.slice(0, NEWEST_USER_TONES_SHOWN);
  return {
    builtins: builtins.filter((tone) => matches(options.builtinName(tone))),
    files: shown,
    hiddenCount: newestFirst.length - shown.length,
    hasSearch,
  };
}
