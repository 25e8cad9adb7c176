import { ECDH } from "node:crypto";
import { type PushSubscriptionRequest, type PushSubscriptionState, RingbackError } from "@ringback/protocol";
import type { z } from "zod";
import type { DeviceRecord, PushSubscriptionRecord } from "../store/store.js";
import type { RelayRuntime } from "./relay-runtime.js";

type ParsedSubscription = z.output<typeof PushSubscriptionRequest>;

/**
 * Registers (or replaces) the device's subscription. The browser's key must be a point on P-256: a key nothing can
 * be encrypted to would otherwise fail every push of every call.
 */
export async function registerPushSubscription(
  runtime: RelayRuntime,
  device: DeviceRecord,
  body: ParsedSubscription,
): Promise<PushSubscriptionState> {
  if (!isPushServiceHost(new URL(body.endpoint).hostname, runtime.config.pushHosts)) {
    throw new RingbackError(
      "invalid_request",
      "endpoint is not at a known push service (the relay's --push-hosts).",
    );
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

/** True when `hostname` is one of `hosts` or a subdomain of one. */
function isPushServiceHost(hostname: string, hosts: readonly string[]): boolean {
  const name = hostname.toLowerCase();
  return hosts.some((host) => name === host || name.endsWith(`.${host}`));
}

function isP256PublicKey(base64url: string): boolean {
  try {
    ECDH.convertKey(Buffer.from(base64url, "base64url"), "prime256v1");
    return true;
  } catch {
    return false;
  }
}
