import { aad, sealJson } from "@ringback/e2e-crypto";
import type { OutboxEntry } from "@ringback/outbox";
import { SealedReportPayload } from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import { sealedQuestion, type TrackerQuestions } from "../tracker/tracker-questions.js";

/**
 * Seals `{report, brief}` with the key current at send time; the associated data names the purpose and the
 * event id, so the ciphertext cannot be replayed as another event. Padded to its size bucket: the relay learns the
 * bucket of the report's length, not the length. A tracker question's call carries its question.
 */
export function createReportSealer(
  config: ConfigFile,
  questions: TrackerQuestions,
): (entry: Readonly<OutboxEntry>) => Promise<string> {
  return (entry) => {
    const question = questions.get(entry.report.eventId);
    const payload = SealedReportPayload.parse({
      report: entry.report,
      brief: entry.brief,
      ...(question ? { trackerQuestion: sealedQuestion(question) } : {}),
    });
    return sealJson(currentE2eKey(config), aad.report(entry.report.eventId), payload, { pad: true });
  };
}
