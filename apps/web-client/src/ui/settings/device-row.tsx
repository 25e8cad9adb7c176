import type { ReadableDevice } from "@ringback/client";
import type { CoreTexts, SettingsTexts } from "@ringback/client/texts";
import { deviceLabel } from "@ringback/client/views";
import { formatTime } from "../shared/format.js";

interface Props {
  readonly device: ReadableDevice;
  readonly t: SettingsTexts;
  readonly core: CoreTexts;
  readonly onRemove: (device: ReadableDevice) => void;
}

/** One of the account's devices: its name (or its kind where the name does not open), whether it is online, Remove. */
export function DeviceRow({ device, t, core, onRemove }: Props) {
  return (
    <li data-testid="device-row">
      <span class="name" data-testid="device-name" data-readable={device.name === null ? "no" : "yes"}>
        {deviceLabel(device, core)}
        {device.isCurrent && t.thisDevice}
      </span>
      <span class="meta">
        <span class="kind">{device.kind}</span> ·{" "}
        <span class={device.online ? "online" : "offline"}>
          {device.online ? t.online : t.lastSeen(formatTime(device.lastSeenAt) || t.never)}
        </span>
      </span>
      <button type="button" class="remove" onClick={() => onRemove(device)}>
        {t.remove}
      </button>
    </li>
  );
}
