import { aad, sealJson } from "@ringback/e2e-crypto";
import type { OutboxEntry } from "@ringback/outbox";
import { SealedReportPayload } from "@ringback/protocol";
import type { ConfigFile } from "./config-file.js";
import { currentE2eKey } from "./e2e-key.js";

/**
 * Seals `{report, brief}` with the key current at send time; the associated data names the purpose and the
 * event id, so the ciphertext cannot be replayed as another event. Padded to its size bucket: the relay learns the
 * bucket of the report's length, not the length.
 */
export function createReportSealer(config: ConfigFile): (entry: Readonly<OutboxEntry>) => Promise<string> {
  return (entry) => {
    const payload = SealedReportPayload.parse({ report: entry.report, brief: entry.brief });
    return sealJson(currentE2eKey(config), aad.report(entry.report.eventId), payload, { pad: true });
  };
}
