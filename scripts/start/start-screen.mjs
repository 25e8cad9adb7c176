import { trustSteps } from "../lan/ca-download.mjs";

// What `pnpm start` shows once everything runs. It knows who can reach what it prints: on 127.0.0.1 the link is for
// this computer's browser and the phone's way is offered beside it; with --lan the phone comes first.

function pairingLines(pairing, hasPassphrase, indent) {
  const until = new Date(pairing.expiresAt).toLocaleTimeString();
  // A code joins only with the passphrase the account's key comes from: without one, the link is the only way.
  const code = hasPassphrase
    ? ` Or enter the code ${pairing.code} there, with the account's passphrase.`
    : "";
  return [`${indent}Valid once, until ${until}.${code}`];
}

/**
 * Devices paired at the address the previous start served do not reach this one (their web app is that address):
 * who they are and how they join again, or nothing when the address is the same.
 */
function movedLines(context) {
  const previous = context.previousRelayUrl;
  if (!previous || previous === context.relayUrl) return [];
  // A phone paired over --lan cannot open 127.0.0.1: only another --lan start reaches it.
  if (previous.startsWith("https:") && !context.relayUrl.startsWith("https:")) {
    return [
      `Phones paired at ${previous} (with --lan) do not reach this relay now: it serves this computer only.`,
      `To ring them, stop this (Ctrl-C) and run  ${context.startCommand} --lan`,
      "",
    ];
  }
  return [
    `Browsers paired at ${previous} do not reach this relay now: open the pairing link below in them to join again.`,
    "",
  ];
}

function closingLines(context) {
  return [
    "",
    "Then make it ring, from another terminal:",
    `  ${context.ringCommand} "Your words here"`,
    "Hook it into Claude Code and Codex for real with:",
    `  ${context.hookInstallCommand}`,
    "",
    `Relay and web app: ${context.relayUrl}   (data: ${context.relayDataDir})`,
    `Daemon: ${context.daemonUrl}   (data: ${context.dataDir})`,
    "No language model is configured yet, so briefs are marked failed and the app reads the agent's own words.",
    "Press Ctrl-C to stop.",
  ];
}

/** The screen of `pnpm start` on 127.0.0.1: this computer's browser now, the phone's way beside it. */
export function loopbackScreen(context) {
  return [
    `Ringback runs on this computer only (${context.relayUrl}): the link below is for a browser on this computer.`,
    "A phone cannot open it: on a phone, 127.0.0.1 is the phone itself.",
    "",
    ...movedLines(context),
    "Open this link in this computer's browser (it holds your end-to-end key: share it with no one):",
    "",
    `  ${context.pairing.link}`,
    "",
    ...pairingLines(context.pairing, context.hasPassphrase, "  "),
    "",
    "To ring your phone (a phone's browser rings only over HTTPS):",
    `  - on the same network as this computer: stop this (Ctrl-C) and run  ${context.startCommand} --lan`,
    "  - from anywhere: a relay on a server behind HTTPS (README, Ring a real phone)",
    ...closingLines(context),
  ];
}

/** The screen of `pnpm start --lan`: the phone's two steps first (trust the CA, open the link), then the rest. */
export function lanScreen(context) {
  const { ca } = context;
  const caNote =
    ca.replaced === "expired" || ca.replaced === "address"
      ? [
          `     This CA is new (the one before ${ca.replaced === "expired" ? "reached its end" : "was for another address"}): ` +
            'remove the old "Ringback local CA" from the phone',
          "     (README, Ring a real phone) and trust this one.",
        ]
      : ca.replaced === null
        ? [`     Trusted "${ca.name}" already, with this fingerprint? Go on to 2.`]
        : [];
  return [
    `Ringback serves your phone at ${context.relayUrl} (this network only), over HTTPS with a certificate`,
    `authority of this computer's own: "${ca.name}", valid until ${ca.validTo.toUTCString()},`,
    "for this computer's addresses only.",
    "",
    ...movedLines(context),
    "On your phone, on the same network as this computer:",
    "",
    ...trustSteps(ca.pageUrl, ca.fingerprint, ca.qrCode),
    ...caNote,
    "",
    "  2. Open this link on the phone, or scan this QR code (it holds your end-to-end key: share it with no one):",
    "",
    `     ${context.pairing.link}`,
    "",
    context.pairingQrCode.trimEnd(),
    ...pairingLines(context.pairing, context.hasPassphrase, "     "),
    ...closingLines(context),
  ];
}
