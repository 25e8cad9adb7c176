import type { ComputerTexts, CoreTexts } from "@ringback/client/texts";
import { type ComputerEntry, deviceLabel } from "@ringback/client/views";
import { formatTime } from "../shared/format.js";

interface Props {
  readonly computer: ComputerEntry;
  /** More than one computer: this device may choose which it talks to. */
  readonly canChoose: boolean;
  readonly t: ComputerTexts;
  readonly core: CoreTexts;
  readonly onChoose: (computerId: string) => void;
}

/** One of the account's computers: its name, online or when last seen, and whether this device talks to it. */
export function ComputerRow({ computer, canChoose, t, core, onChoose }: Props) {
  return (
    <li
      data-testid="computer-row"
      data-computer-id={computer.id}
      data-online={String(computer.isOnline)}
      data-chosen={String(computer.isChosen)}
    >
      <span class="name">{deviceLabel({ name: computer.name, kind: "computer" }, core)}</span>
      <span
        class={computer.isOnline ? "online" : "offline"}
        title={computer.lastSeenAt ? t.lastSeen(formatTime(computer.lastSeenAt)) : undefined}
      >
        {computer.isOnline ? t.computerOnline : t.computerOffline}
      </span>
      {computer.isChosen
        ? canChoose && <span class="hint">{t.computerChosen}</span>
        : canChoose && (
            <button type="button" data-testid="choose-computer" onClick={() => onChoose(computer.id)}>
              {t.chooseComputer}
            </button>
          )}
    </li>
  );
}
