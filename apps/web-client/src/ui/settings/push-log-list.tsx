import { type PushLogEntry, readPushLog } from "@ringback/client";
import { PUSH_TEXTS } from "@ringback/client/texts";
import { pushLogLines } from "@ringback/client/views";
import { useEffect, useState } from "preact/hooks";
import type { AppView } from "../../app/controller/app-controller.js";
import { createIdbStore } from "../../app/storage/idb-key-value.js";
import { formatTime } from "../shared/format.js";
import { texts } from "../shared/use-texts.js";

/** What the service worker did with the last pushes here: the answer to "why did this call not ring?". */
export function PushLogList({ view }: { readonly view: AppView }) {
  const t = texts(PUSH_TEXTS, view.interfaceLanguage);
  const [entries, setEntries] = useState<PushLogEntry[] | null>(null);
  useEffect(() => {
    readPushLog(createIdbStore())
      .then(setEntries)
      .catch(() => setEntries([]));
  }, []);
  if (entries === null) return null;
  const lines = pushLogLines(entries, view.calls.records, t);
  return (
    <details class="push-log" data-testid="push-log">
      <summary>{t.logTitle(lines.length)}</summary>
      {lines.length === 0 ? (
        <p class="hint">{t.logEmpty}</p>
      ) : (
        <ul>
          {lines.map((line, index) => (
            <li key={`${index}-${line.at}`} data-testid="push-log-entry">
              <span class="hint">{formatTime(line.at)}</span> {line.text}
              {line.callTitle && <> · {line.callTitle}</>}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
