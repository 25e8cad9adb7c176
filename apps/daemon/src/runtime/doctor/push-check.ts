import { PushPublicKey, vapidSubjectCheck } from "@ringback/protocol";
import { type DoctorCheck, fail, ok, warn } from "./doctor-check.js";

const RELAY_TIMEOUT_MS = 5_000;
const FIX = "start the relay with --push-subject mailto:<you>@<your domain> (or an https: URL of yours)";

/**
 * The contact the relay's pushes name (RFC 8292 `sub`, `GET /v1/push/public-key`): `fail` for one Apple's push
 * service refuses (a `localhost` contact: 403 BadJwtToken, so Safari and iPhone devices never ring), `ok` otherwise,
 * saying so when it reaches nobody (the relay's default example address). Nothing to say without a relay: the relay
 * check says that.
 */
export async function checkPush(serverUrl: string | null): Promise<DoctorCheck> {
  if (!serverUrl) return ok("push", "no relay joined: nothing is pushed yet", { serverUrl });
  let subject: string | undefined;
  try {
    const response = await fetch(new URL("/v1/push/public-key", serverUrl), {
      signal: AbortSignal.timeout(RELAY_TIMEOUT_MS),
    });
    if (!response.ok) {
      return warn("push", `the relay answered /v1/push/public-key with ${response.status}`, null, {
        serverUrl,
      });
    }
    subject = PushPublicKey.parse(await response.json()).subject;
  } catch (error) {
    const reason = error instanceof Error ? error.name : "unknown error";
    return warn("push", `the relay's push contact could not be read (${reason})`, null, { serverUrl });
  }
  if (subject === undefined) {
    return warn("push", "the relay does not say its push contact (a relay older than this check)", null, {
      serverUrl,
    });
  }
  const details = { serverUrl, subject };
  const check = vapidSubjectCheck(subject);
  switch (check.kind) {
    case "ok":
      return ok("push", `the relay's pushes name ${subject}`, details);
    case "doubtful":
      return ok(
        "push",
        `the relay's pushes name ${subject}, which reaches nobody (set --push-subject)`,
        details,
      );
    case "refused":
    case "invalid":
      return fail("push", check.reason, FIX, details);
  }
}
