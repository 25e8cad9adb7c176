import type { RungAnswer } from "@ringback/protocol";
import { endpointUrl } from "./channel-endpoints.js";
import { channelRequest, rungAnswerOf } from "./channel-request.js";
import type { LadderRung } from "./ladder-rung.js";

/**
 * The first rung: the relay pushes the ringing call to every phone again now, through its own Web Push path at high
 * urgency (`POST /v1/daemon/events/<eventId>/push`). Only routing data goes there, as with every push.
 */
export function pushAgainRung(
  eventId: string,
  relay: { serverUrl: string; deviceToken: string },
): LadderRung {
  return {
    name: "push",
    ring: async (signal): Promise<{ answer: RungAnswer }> => {
      const response = await channelRequest(
        endpointUrl(relay.serverUrl, `/v1/daemon/events/${encodeURIComponent(eventId)}/push`),
        { method: "POST", headers: { Authorization: `Bearer ${relay.deviceToken}` } },
        signal,
      );
      return { answer: rungAnswerOf(response, relayError) };
    },
  };
}

/**
 * Whether the call still rings (`GET /v1/calls/<eventId>`: status `pending`, and not a quiet call, which is listed
 * and never rung): a phone that answered it stops the ladder before a decision comes. No answer from the relay
 * counts as ringing: a rung too many beats one too few.
 */
export async function isCallRinging(
  eventId: string,
  relay: { serverUrl: string; deviceToken: string },
  signal: AbortSignal,
): Promise<boolean> {
  const response = await channelRequest(
    endpointUrl(relay.serverUrl, `/v1/calls/${encodeURIComponent(eventId)}`),
    { method: "GET", headers: { Authorization: `Bearer ${relay.deviceToken}` } },
    signal,
  );
  if (response.kind !== "answered") return true;
  if (response.status === 404) return false;
  if (response.status !== 200) return true;
  const call = response.body as { status?: unknown; ring?: unknown } | null;
  if (call?.ring === "quiet") return false;
  return call?.status === undefined || call.status === "pending";
}

/** The relay's error envelope: `{"error":{"code","message"}}`. */
function relayError(body: unknown): string | null {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message : null;
}
