import type { DeviceInvitation, ReadableDevice } from "@ringback/client";
import { isRelayError } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, SETTINGS_TEXTS } from "@ringback/client/texts";
import { deviceLabel } from "@ringback/client/views";
import { useCallback, useEffect, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { errorText } from "../shared/error-text.js";
import { useBusyAction } from "../shared/use-busy-action.js";
import { texts } from "../shared/use-texts.js";
import { DeviceRow } from "./device-row.js";
import { InvitationPanel } from "./invitation-panel.js";

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
  const [notice, setNotice] = useState<string | null>(null);
  const { failure, run, fail } = useBusyAction<"loading" | "removing" | "inviting">();
  // This device was removed elsewhere: the app goes back to the welcome page, which says so.
  const isRemovedHere = failure !== null && isRelayError(failure.error) && failure.error.isDeviceRemoved;
  useEffect(() => {
    if (isRemovedHere) controller.deviceRemoved("device-removed").catch(() => undefined);
  }, [controller, isRemovedHere]);

  const load = useCallback(() => {
    controller
      .listDevices()
      .then((list) => setDevices(list))
      .catch((caught: unknown) => fail("loading", caught));
  }, [controller, fail]);
  useEffect(load, [load]);

  const remove = async (device: ReadableDevice) => {
    if (!confirm(t.removeDeviceConfirm(deviceLabel(device, core)))) return;
    setNotice(null);
    await run("removing", async () => {
      try {
        const replaced = await controller.removeDevice(device);
        if (replaced === null) return;
        setNotice(t.keyReplaced(replaced.moved, replaced.later));
        load();
      } catch (caught) {
        load();
        throw caught;
      }
    });
  };
  const inviteFailed = useCallback((caught: unknown) => fail("inviting", caught), [fail]);
  const invite = () => run("inviting", async () => setInvitation(await controller.inviteDevice()));

  return (
    <section class="card devices-settings" data-testid="devices-settings">
      <h2>{t.devices}</h2>
      {failure && !isRemovedHere && <p class="error">{errorText(failure.error, language)}</p>}
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
            <DeviceRow key={device.id} device={device} t={t} core={core} onRemove={remove} />
          ))}
        </ul>
      )}
      <button type="button" data-testid="add-device" onClick={invite}>
        {t.addDevice}
      </button>
      {invitation && <InvitationPanel invitation={invitation} t={t} onFailure={inviteFailed} />}
    </section>
  );
}
