import { ECDH } from "node:crypto";
import { type PushSubscriptionRequest, type PushSubscriptionState, RingbackError } from "@ringback/protocol";
import type { z } from "zod";
import type { DeviceRecord, PushSubscriptionRecord } from "../store/store.js";
import { PushEndpointRefused, parsePushEndpoint } from "./push-endpoint.js";
import type { RelayRuntime } from "./relay-runtime.js";

type ParsedSubscription = z.output<typeof PushSubscriptionRequest>;

/**
 * Registers (or replaces) the device's subscription. The endpoint must pass the one parse pushes are built from
 * (`parsePushEndpoint`: a push service's host name, no port, no user, canonical); the browser's key must be a point
 * on P-256: a key nothing can be encrypted to would otherwise fail every push of every call.
 */
export async function registerPushSubscription(
  runtime: RelayRuntime,
  device: DeviceRecord,
  body: ParsedSubscription,
): Promise<PushSubscriptionState> {
  try {
    parsePushEndpoint(body.endpoint, {
      hosts: runtime.config.pushHosts,
      trustedOrigins: runtime.config.pushTrustedOrigins,
    });
  } catch (error) {
    if (error instanceof PushEndpointRefused) throw new RingbackError("invalid_request", error.message);
    throw error;
  }
  if (!isP256PublicKey(body.keys.p256dh)) {
    throw new RingbackError("invalid_request", "keys.p256dh is not a P-256 public key.");
  }
  const now = runtime.clock.now();
  await runtime.store.setPushSubscription({
    deviceId: device.id,
    accountId: device.accountId,
    endpoint: body.endpoint,
    p256dh: body.keys.p256dh,
    auth: body.keys.auth,
    repeatSeconds: body.repeatSeconds,
    now,
  });
  runtime.log.line(`push subscription set device=${device.id} repeat=${body.repeatSeconds}s`);
  return pushSubscriptionState(device.id, await runtime.store.findPushSubscription(device.id));
}

export function pushSubscriptionState(
  deviceId: string,
  record: PushSubscriptionRecord | null,
): PushSubscriptionState {
  return {
    deviceId,
    subscribed: record !== null,
    endpoint: record?.endpoint ?? null,
    repeatSeconds: record?.repeatSeconds ?? null,
    updatedAt: record ? new Date(record.updatedAt).toISOString() : null,
  };
}

function isP256PublicKey(base64url: string): boolean {
  try {
    ECDH.convertKey(Buffer.from(base64url, "base64url"), "prime256v1");
    return true;
  } catch {
    return false;
  }
}
