import { writeFile } from "node:fs/promises";
import { join } from "node:path";

/** The relay identity a test's daemon.json holds; the kit's scripted relay takes any token. */
const TEST_RELAY_IDENTITY = {
  deviceToken: "device-token-for-tests-0123456789",
  accountId: "a",
  deviceId: "d",
};

/** Writes `{home}/daemon.json` (600) linked to the scripted relay, with `extra` fields such as `llm`. */
export function writeDaemonConfigForTestRelay(
  home: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  return writeFile(join(home, "daemon.json"), JSON.stringify({ relay: TEST_RELAY_IDENTITY, ...extra }), {
    mode: 0o600,
  });
}
