import {
  PushPublicKey,
  type PushSubscriptionKeys,
  type PushSubscriptionRequest,
  PushSubscriptionState,
} from "@ringback/protocol";

/** The relay's VAPID public key (`GET /v1/push/public-key`): the `applicationServerKey` a browser subscribes with. */
export async function relayPushPublicKey(relayUrl: string): Promise<string> {
  const response = await fetch(new URL("/v1/push/public-key", relayUrl));
  if (!response.ok) throw new Error(`GET /v1/push/public-key answered ${response.status}`);
  return PushPublicKey.parse(await response.json()).publicKey;
}

/**
 * Registers a device's push subscription at the relay (`PUT /v1/push/subscription` with the device's token), as
 * the web app does after `PushManager.subscribe`.
 */
export async function registerPushSubscription(
  relayUrl: string,
  deviceToken: string,
  subscription: { readonly endpoint: string; readonly keys: PushSubscriptionKeys },
  repeatSeconds?: number,
): Promise<PushSubscriptionState> {
  const body: PushSubscriptionRequest = {
    endpoint: subscription.endpoint,
    keys: subscription.keys,
    expirationTime: null,
    ...(repeatSeconds === undefined ? {} : { repeatSeconds }),
  };
  const response = await fetch(new URL("/v1/push/subscription", relayUrl), {
    method: "PUT",
    headers: { Authorization: `Bearer ${deviceToken}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer: unknown = await response.json();
  if (!response.ok)
    throw new Error(`PUT /v1/push/subscription answered ${response.status}: ${JSON.stringify(answer)}`);
  return PushSubscriptionState.parse(answer);
}
