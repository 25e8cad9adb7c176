import { ALWAYS_RING, CallCenter, createMemoryStore, type Pairing } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import { eventually } from "@ringback/test-kit";
import { ListenSession } from "../../src/listen/listen-session.js";

/**
 * For the companion's tests: a terminal companion paired with the relay at `origin` as device "terminal" with `key`
 * (or as `joined`, the pairing `ringback listen --pair` makes on a real relay), not connected yet; what it wrote, and
 * its session to type into.
 */
export function terminalCompanion(origin: string, key: E2eKey, joined?: Pairing) {
  const written: string[] = [];
  const center = new CallCenter({
    store: createMemoryStore(),
    pairing: () =>
      joined ?? {
        identity: { accountId: "a", deviceId: "terminal", deviceToken: "token-terminal", serverUrl: origin },
        key,
      },
    schedule: () => ALWAYS_RING,
    onDeviceRemoved: () => undefined,
  });
  const session = new ListenSession({
    center,
    write: (text) => written.push(text),
    notifier: null,
    quit: () => undefined,
  });
  return { center, session, written, output: () => written.join("") };
}

/** The terminal companion of `terminalCompanion`, connected and listening. Stop its `center` when done. */
export async function startListeningTerminal(origin: string, key: E2eKey, joined?: Pairing) {
  const terminal = terminalCompanion(origin, key, joined);
  await terminal.center.load();
  terminal.center.connect();
  await eventually(() => terminal.written.includes("Listening for calls.\n"));
  return terminal;
}
