import { aad, type E2eKey, isE2eError, openJson } from "@ringback/e2e-crypto";
import { type RelayedEvent, SealedReportPayload } from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";

/** Why a relayed call could not be opened; shown on the idle page without any of its content. */
export type OpenCallProblem = "key_mismatch" | "corrupted" | "invalid_payload";

/** A relayed call that does not open with this device's key; `code` (and `problem`, the same word) says why. */
export class OpenCallError extends ClientError<OpenCallProblem> {
  override readonly name = "OpenCallError";
  constructor(
    readonly problem: OpenCallProblem,
    options?: { cause?: unknown },
  ) {
    super(
      problem,
      problem === "key_mismatch"
        ? "This call was sealed with another encryption key than this device's."
        : "This call could not be opened: its sealed data is damaged or not a report.",
      options,
    );
  }
}

/**
 * Opens the sealed report and brief of a relayed event with the device's key. The associated data names the event
 * id, so a sealed report replayed under another event id does not open.
 */
export async function openRelayedEvent(key: E2eKey, event: RelayedEvent): Promise<SealedReportPayload> {
  let value: unknown;
  try {
    value = await openJson(key, aad.report(event.eventId), event.sealed);
  } catch (cause) {
    throw new OpenCallError(isE2eError(cause, "key_mismatch") ? "key_mismatch" : "corrupted", { cause });
  }
  const parsed = SealedReportPayload.safeParse(value);
  if (!parsed.success || parsed.data.report.eventId !== event.eventId) {
    throw new OpenCallError("invalid_payload");
  }
  return parsed.data;
}
