import { ALWAYS_RING, CallCenter, createMemoryStore } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import { eventually } from "@ringback/test-kit";
import { ListenSession } from "../../src/listen/listen-session.js";

/**
 * For the companion's tests: a terminal companion joined to the relay at `origin` as device "terminal" with `key`,
 * connected and listening. Stop its `center` when done.
 */
export async function startListeningTerminal(origin: string, key: E2eKey) {
  const written: string[] = [];
  const center = new CallCenter({
    store: createMemoryStore(),
    pairing: () => ({
      identity: { accountId: "a", deviceId: "terminal", deviceToken: "token-terminal", serverUrl: origin },
      key,
    }),
    schedule: () => ALWAYS_RING,
    onDeviceRemoved: () => undefined,
  });
  const session = new ListenSession({
    center,
    write: (text) => written.push(text),
    notifier: null,
    quit: () => undefined,
  });
  await center.load();
  center.connect();
  await eventually(() => written.includes("Listening for calls.\n"));
  return { center, session, written, output: () => written.join("") };
}
