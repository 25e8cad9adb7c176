// A companion in a terminal: joins with a pairing link, rings (prints) each call, and answers it on Enter.
// Run: node examples/minimal-companion.ts '<pairing link>' (after `pnpm --filter @ringback/client build`).
import {
  ALWAYS_RING,
  CallCenter,
  callerName,
  joinWithLink,
  LocalSettings,
  ringingCall,
} from "@ringback/client";
import { openFileStore } from "@ringback/client/node";

const store = await openFileStore(".ringback-companion");
const settings = new LocalSettings(store);
const pairing =
  (await settings.loadPairing()) ??
  (await joinWithLink(process.argv[2] ?? "", { deviceName: "Terminal", deviceKind: "phone" }));
await settings.savePairing(pairing);

const center = new CallCenter({
  store,
  pairing: () => pairing,
  schedule: () => ALWAYS_RING,
  onDeviceRemoved: () => process.exit(1),
});
let ringing: string | null = null;
center.subscribe(({ calls }) => {
  const call = ringingCall(calls);
  if ((call?.eventId ?? null) === ringing) return;
  ringing = call?.eventId ?? null;
  if (!call) return console.log("(stopped ringing: answered here or on another device)");
  console.log(
    `\u0007${callerName(call)}: ${call.payload.brief.title}\n${call.payload.brief.spoken}\n[Enter] answers`,
  );
  center.ringShown(call.eventId);
});
process.stdin.on("data", () => ringing && center.answer(ringing)); // the other devices stop ringing
await center.load();
center.connect();
