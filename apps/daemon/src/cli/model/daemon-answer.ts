import type { LocalAnswer } from "../../runtime/keys/signed-local-request.js";

/** What the daemon said went wrong, from its error envelope; its status, or "no answer", when it said nothing. */
export function daemonRefusal(answer: LocalAnswer | null): string {
  const message = (answer?.body as { error?: { message?: string } } | null)?.error?.message;
  return message ?? (answer ? `HTTP ${answer.status}` : "no answer");
}
