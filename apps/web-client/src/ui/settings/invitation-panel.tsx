import type { DeviceInvitation } from "@ringback/client";
import type { SettingsTexts } from "@ringback/client/texts";
import { useEffect, useState } from "preact/hooks";
import { formatTime } from "../shared/format.js";

interface Props {
  readonly invitation: DeviceInvitation;
  readonly t: SettingsTexts;
  readonly onFailure: (error: unknown) => void;
}

/** A new device's invitation: the pairing link as a QR code and as text, and the code with its expiry. */
export function InvitationPanel({ invitation, t, onFailure }: Props) {
  const qrCode = usePairingQrCode(invitation.link, onFailure);
  return (
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
  );
}

/** The link as an SVG QR code (a data address), null until drawn. */
function usePairingQrCode(link: string, onFailure: (error: unknown) => void): string | null {
  const [qrCode, setQrCode] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    setQrCode(null);
    // Loaded on demand: only this panel draws QR codes, so the first load stays small.
    import("qrcode")
      .then(({ default: QRCode }) =>
        QRCode.toString(link, { type: "svg", margin: 1, errorCorrectionLevel: "M" }),
      )
      .then((svg) => isCurrent && setQrCode(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(onFailure);
    return () => {
      isCurrent = false;
    };
  }, [link, onFailure]);
  return qrCode;
}
