import { DeviceCredentials, type DeviceKind, PairingCodeCreated } from "@ringback/protocol";

export interface RelayAnswer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: relay answers of many shapes, checked by each test.
  body: any;
}

/** One JSON call to the relay as a device (`token`) or anonymously. */
export async function relayCall(
  relayUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<RelayAnswer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(`${relayUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? null : JSON.parse(text) };
}

/** Adds a device to the account of `inviterToken` through the relay's pairing API (code, then redeem). */
export async function pairDevice(
  relayUrl: string,
  inviterToken: string,
  deviceKind: DeviceKind,
  deviceName = `test ${deviceKind}`,
): Promise<DeviceCredentials> {
  const created = await relayCall(relayUrl, "POST", "/v1/pairing-codes", { token: inviterToken });
  const { code } = PairingCodeCreated.parse(created.body);
  return redeem(relayUrl, code, deviceKind, deviceName);
}

/** Redeems a pairing code as a new device. */
export async function redeem(
  relayUrl: string,
  code: string,
  deviceKind: DeviceKind,
  deviceName = `test ${deviceKind}`,
): Promise<DeviceCredentials> {
  const answer = await relayCall(relayUrl, "POST", "/v1/pairing-codes/redeem", {
    body: { code, deviceName, deviceKind },
  });
  if (answer.status !== 201)
    throw new Error(`redeem answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return DeviceCredentials.parse(answer.body);
}
