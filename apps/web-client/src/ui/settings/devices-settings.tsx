import type { DeviceInvitation, ReadableDevice } from "@ringback/client";
import { isRelayError } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, SETTINGS_TEXTS } from "@ringback/client/texts";
import { deviceLabel } from "@ringback/client/views";
import { useCallback, useEffect, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { formatTime } from "../shared/format.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

/** Settings › Devices: the account's devices, removing one, and adding one with a pairing link and its QR code. */
export function DevicesSettings({ controller, language }: Props) {
  const t = texts(SETTINGS_TEXTS, language);
  const core = texts(CORE_TEXTS, language);
  const [devices, setDevices] = useState<readonly ReadableDevice[] | null>(null);
  const [invitation, setInvitation] = useState<DeviceInvitation | null>(null);
  const [qrCode, setQrCode] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const fail = useCallback(
    (caught: unknown) => {
      if (isRelayError(caught) && caught.isDeviceRemoved) {
        controller.deviceRemoved("device-removed").catch(() => undefined);
        return;
      }
      setError(errorText(caught, language));
    },
    [controller, language],
  );

  const load = useCallback(() => {
    controller
      .listDevices()
      .then((list) => setDevices(list))
      .catch(fail);
  }, [controller, fail]);

  useEffect(load, [load]);

  const remove = async (device: ReadableDevice) => {
    if (!confirm(t.removeDeviceConfirm(deviceLabel(device, core)))) return;
    setError(null);
    setNotice(null);
    try {
      const replaced = await controller.removeDevice(device);
      if (replaced === null) return;
      setNotice(t.keyReplaced(replaced.moved, replaced.later));
      load();
    } catch (caught) {
      fail(caught);
      load();
    }
  };

  const invite = async () => {
    setError(null);
    try {
      const created = await controller.inviteDevice();
      setInvitation(created);
      // Loaded on demand: only this panel draws QR codes, so the first load stays small.
      const { default: QRCode } = await import("qrcode");
      const svg = await QRCode.toString(created.link, { type: "svg", margin: 1, errorCorrectionLevel: "M" });
      setQrCode(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    } catch (caught) {
      fail(caught);
    }
  };

  return (
    <section class="card devices-settings" data-testid="devices-settings">
      <h2>{t.devices}</h2>
      {error && <p class="error">{error}</p>}
      {notice && (
        <p class="notice" data-testid="key-replaced">
          {notice}
        </p>
      )}
      {devices === null ? (
        <p>{core.loading}</p>
      ) : (
        <ul class="device-list">
          {devices.map((device) => (
            <li key={device.id} data-testid="device-row">
              <span
                class="name"
                data-testid="device-name"
                data-readable={device.name === null ? "no" : "yes"}
              >
                {deviceLabel(device, core)}
                {device.isCurrent && t.thisDevice}
              </span>
              <span class="meta">
                <span class="kind">{device.kind}</span> ·{" "}
                <span class={device.online ? "online" : "offline"}>
                  {device.online ? t.online : t.lastSeen(formatTime(device.lastSeenAt) || t.never)}
                </span>
              </span>
              <button type="button" class="remove" onClick={() => remove(device)}>
                {t.remove}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" data-testid="add-device" onClick={invite}>
        {t.addDevice}
      </button>
      {invitation && (
        <div class="invitation" data-testid="invitation">
          <p>{t.invitationLead(formatTime(invitation.expiresAt))}</p>
          {qrCode && <img class="qr" src={qrCode} alt={t.pairingQrAlt} width={240} height={240} />}
          <input
            readOnly
            value={invitation.link}
            data-testid="invitation-link"
            onFocus={(event) => event.currentTarget.select()}
          />
          <p class="hint">
            {t.invitationCodeBefore} <strong>{invitation.code}</strong> {t.invitationCodeAfter}
          </p>
        </div>
      )}
    </section>
  );
}
