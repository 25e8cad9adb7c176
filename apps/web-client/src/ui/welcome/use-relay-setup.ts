import type { RelaySetup } from "@ringback/protocol";
import { useEffect, useState } from "preact/hooks";
import type { DevicePairing } from "../../app/pairing/device-pairing.js";

/** How the relay at `serverUrl` is set up (whether a new account needs its claim code); null until it says. */
export function useRelaySetup(pairing: DevicePairing, serverUrl: string): RelaySetup | null {
  const [setup, setSetup] = useState<RelaySetup | null>(null);
  useEffect(() => {
    let isCurrent = true;
    setSetup(null);
    pairing
      .relayClient(serverUrl)
      .setup()
      .then((answer) => isCurrent && setSetup(answer))
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [pairing, serverUrl]);
  return setup;
}
