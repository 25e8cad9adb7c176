import type { Context } from "hono";

/** Who sent a relayed request, as the relay stamped it: undefined when the relay is older than the stamp. */
interface RelayedSender {
  deviceId: string | undefined;
}

/** The envs this process made for relayed requests; no HTTP request can carry one (a socket's env is the server's). */
const relayedEnvs = new WeakMap<object, RelayedSender>();

/**
 * What a relayed settings request runs with (`app.fetch(request, relayedRequestEnv(sender))`): the local interface
 * answers a device through the relay as it answers a local caller, except where a route must say less to a device
 * or act for the device that sent it.
 */
export function relayedRequestEnv(senderDeviceId: string | undefined): object {
  const env = Object.freeze({ relayed: true });
  relayedEnvs.set(env, { deviceId: senderDeviceId });
  return env;
}

/** True while answering a request a device sent through the relay. */
export function isRelayedRequest(context: Context): boolean {
  return relayedEnvs.has(context.env as object);
}

/** Who sent a request: a caller on this computer, or a device through the relay (its id when the relay stamped it). */
export type RequestSender = { kind: "local" } | { kind: "device"; deviceId?: string };

/**
 * Who asked: the relay's stamp of the device whose token sent a relayed request (undefined from an older relay),
 * or "local" for a caller on this computer with the local key.
 */
export function requestSender(context: Context): RequestSender {
  const sender = relayedEnvs.get(context.env as object);
  if (!sender) return { kind: "local" };
  return sender.deviceId === undefined ? { kind: "device" } : { kind: "device", deviceId: sender.deviceId };
}
