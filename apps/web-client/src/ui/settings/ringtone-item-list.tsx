import type { RingtonesController, Tone } from "@ringback/client";
import {
  BUILTIN_TONES,
  builtinRef,
  fileRef,
  type RingtoneFileInfo,
  type RingtoneItem,
  SILENT,
  type ToneRef,
} from "@ringback/client";
import type { SettingsTexts } from "@ringback/client/texts";
import { ringtoneList } from "@ringback/client/views";
import { useState } from "preact/hooks";

const BUILTIN_NAMES: Record<string, keyof SettingsTexts> = {
  classic: "builtinClassic",
  ringback: "builtinRingback",
  "long-ring": "builtinLongRing",
  chirp: "builtinChirp",
  pulse: "builtinPulse",
  chord: "builtinChord",
  "needs-you": "builtinNeedsYou",
};

function builtinName(tone: Tone, t: SettingsTexts): string {
  const key = BUILTIN_NAMES[tone.id];
  return key ? (t[key] as string) : tone.id;
}

interface Props {
  readonly item: RingtoneItem;
  readonly title: string;
  readonly ringtones: RingtonesController;
  readonly chosen: ToneRef;
  readonly files: readonly RingtoneFileInfo[];
  readonly t: SettingsTexts;
  readonly onDelete: (file: RingtoneFileInfo) => void;
}

/** One ringtone item's tones: built-ins, the newest 5 of the user's (the rest behind "show all"), search above 8. */
export function RingtoneItemList({ item, title, ringtones, chosen, files, t, onDelete }: Props) {
  const [showAll, setShowAll] = useState(false);
  const [query, setQuery] = useState("");
  const list = ringtoneList(BUILTIN_TONES, files, {
    showAll,
    query,
    builtinName: (tone) => builtinName(tone, t),
  });
  const option = (ref: ToneRef, name: string, file?: RingtoneFileInfo) => (
    <li key={ref} class="row tone" data-testid="tone-option" data-ref={ref}>
      <label>
        <input
          type="radio"
          name={`tone-${item}`}
          checked={chosen === ref}
          onChange={() => ringtones.choose(item, ref).catch(() => undefined)}
        />
        {name}
      </label>
      {ref !== SILENT && (
        <button
          type="button"
          data-testid="tone-preview"
          onClick={() => ringtones.preview(ref).catch(() => undefined)}
        >
          {t.preview}
        </button>
      )}
      {file && (
        <button type="button" data-testid="tone-delete" onClick={() => onDelete(file)}>
          {t.delete}
        </button>
      )}
    </li>
  );
  return (
    <fieldset class="ringtone-item" data-testid={`ringtone-item-${item}`}>
      <legend>{title}</legend>
      {list.hasSearch && (
        <input
          type="search"
          data-testid="tone-search"
          placeholder={t.searchTones}
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
      )}
      <ul class="tone-list">
        {item === "callWaiting" && query === "" && option(SILENT, t.silent)}
        {list.builtins.map((tone) => option(builtinRef(tone.id), builtinName(tone, t)))}
        {list.files.map((file) => option(fileRef(file.id), file.name, file))}
      </ul>
      {list.hiddenCount > 0 && (
        <button type="button" class="link" data-testid="tones-show-all" onClick={() => setShowAll(true)}>
          {t.showAll(list.hiddenCount)}
        </button>
      )}
    </fieldset>
  );
}
