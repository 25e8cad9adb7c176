// A companion in a terminal: joins with a pairing link, then rings (prints) each call and answers it.
// Run: node examples/minimal-companion.ts '<pairing link>' (after `pnpm --filter @ringback/client build`).
import {
  ALWAYS_RING,
  CallStream,
  type CallsModel,
  EMPTY_CALLS_MODEL,
  joinWithLink,
  LocalSettings,
  openRelayedEvent,
  RelayClient,
  reduceCalls,
} from "@ringback/client";
import { openFileStore } from "@ringback/client/node";

const settings = new LocalSettings(await openFileStore(".ringback-companion"));
const pairing =
  (await settings.loadPairing()) ??
  (await joinWithLink(process.argv[2] ?? "", { deviceName: "Terminal", deviceKind: "phone" }));
await settings.savePairing(pairing);
const { serverUrl, deviceToken, deviceId } = pairing.identity;
const relay = new RelayClient({ serverUrl, deviceToken });
let calls: CallsModel = EMPTY_CALLS_MODEL;

new CallStream({
  serverUrl,
  deviceToken,
  lastEventId: await settings.loadLastEventId(),
  handlers: {
    async onCall(event) {
      const payload = await openRelayedEvent(pairing.key, event);
      const env = { now: new Date(), schedule: ALWAYS_RING, deviceId };
      calls = reduceCalls(calls, { type: "report-received", routing: event, payload }, env).model;
      console.log(`\u0007${payload.brief.title}\n${payload.brief.spoken}`);
      await relay.writeCallStatus(event.eventId, "answered"); // the other devices stop ringing
    },
    onCallStatus: (change) => console.log(`${change.eventId}: ${change.status}`),
    onLastEventId: (id) => settings.saveLastEventId(id),
    onDeviceRemoved: () => process.exit(1),
  },
}).start();
