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

/** The relay's error envelope: `{"error":{"code","message"}}`. */
function relayError(body: unknown): string | null {
  const message = (body as { error?: { message?: unknown } } | null)?.error?.message;
  return typeof message === "string" ? message : null;
}
