import { PushPublicKey, PushSubscriptionState } from "@ringback/protocol";

/** The relay's VAPID public key (`GET /v1/push/public-key`): the `applicationServerKey` a browser subscribes with. */
export async function relayPushPublicKey(relayUrl: string): Promise<string> {
  const response = await fetch(new URL("/v1/push/public-key", relayUrl));
  if (!response.ok) throw new Error(`GET /v1/push/public-key answered ${response.status}`);
  return PushPublicKey.parse(await response.json()).publicKey;
}

/** The push subscription the relay holds for a device (`GET /v1/push/subscription` with the device's token). */
export async function relayPushSubscription(
  relayUrl: string,
  deviceToken: string,
): Promise<PushSubscriptionState> {
  const response = await fetch(new URL("/v1/push/subscription", relayUrl), {
    headers: { Authorization: `Bearer ${deviceToken}` },
  });
  const answer: unknown = await response.json();
  if (!response.ok)
    throw new Error(`GET /v1/push/subscription answered ${response.status}: ${JSON.stringify(answer)}`);
  return PushSubscriptionState.parse(answer);
}
