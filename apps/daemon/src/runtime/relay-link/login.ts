import { hostname } from "node:os";
import { normaliseServerUrl, parsePairingLink, placeholderDeviceName } from "@ringback/client";
import { deriveKeyFromPassphrase, type E2eKey, keyId, sealDeviceName } from "@ringback/e2e-crypto";
import {
  DEVICE_NAME_MAX_CHARS,
  type DeviceCredentials,
  type E2eKeySource,
  isPassphraseLongEnough,
  type LocalLoginRequest,
  type LocalLoginResult,
  PairingCodeText,
  RingbackError,
} from "@ringback/protocol";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import type { Logger } from "../logger.js";
import { setComputerName } from "./computer-name.js";
import { refusedAsInvalidRequest } from "./link-refusal.js";
import { RelayApi } from "./relay-api.js";
import { defaultServerUrl } from "./relay-server-url.js";

/** This computer's kind at the relay: replies and relayed settings are routed to computers only. */
const DEVICE_KIND = "computer";

/** How the login gets its credentials and its key. */
type LoginPlan =
  | { kind: "create" }
  | { kind: "link"; code: string; key: E2eKey; serverUrl: string }
  | { kind: "code"; code: string };

/**
 * `ringback login` / `POST /local/login`: creates an account (no `pairing`), or joins one with a pairing link
 * (its key is adopted, source "imported") or a 12-digit code plus the account's passphrase (source
 * "passphrase"); then writes `serverUrl` and `relay: {deviceToken, accountId, deviceId, deviceName}` into daemon.json.
 * The name goes to the relay sealed with the key the computer will use when it is known before (a link's, or its own
 * for a new account without a passphrase); else as the placeholder (its kind), then sealed once the passphrase key is.
 */
export async function loginToRelay(
  config: ConfigFile,
  request: LocalLoginRequest,
  options: { env: NodeJS.ProcessEnv; now: Date; fetch?: typeof globalThis.fetch; log?: Logger },
): Promise<Omit<LocalLoginResult, "needsRestart">> {
  const plan = planLogin(request.pairing);
  const serverUrl = refusedAsInvalidRequest(() =>
    normaliseServerUrl(
      request.serverUrl ??
        (plan.kind === "link" ? plan.serverUrl : undefined) ??
        defaultServerUrl(config, options.env),
    ),
  );
  const keyOf = keyForLogin(plan, request.passphrase);
  const api = new RelayApi(serverUrl, options.fetch);
  // The relay cannot check a sealed name's length: a host name (up to 253 characters) is cut to the limit here.
  const deviceName = request.deviceName ?? hostname().slice(0, DEVICE_NAME_MAX_CHARS);
  const keyBefore = keyBeforeJoining(plan, request.passphrase, config);
  const sentName = keyBefore
    ? await sealDeviceName(keyBefore, deviceName)
    : placeholderDeviceName(DEVICE_KIND);
  const credentials =
    plan.kind === "create"
      ? await createAccount(api, sentName, request.claimCode)
      : await api.redeemPairingCode({ code: plan.code, deviceName: sentName, deviceKind: DEVICE_KIND });
  await saveIdentity(
    config,
    serverUrl,
    { ...credentials, deviceName },
    await keyOf(credentials),
    options.now,
  );
  if (!keyBefore) {
    await setComputerName(api, credentials.deviceToken, currentE2eKey(config), deviceName, options);
  }
  const e2e = config.config.e2e;
  return {
    serverUrl,
    accountId: credentials.accountId,
    deviceId: credentials.deviceId,
    createdAccount: plan.kind === "create",
    keyId: await keyId(currentE2eKey(config)),
    keySource: e2e?.source ?? "generated",
  };
}

function planLogin(pairing: string | undefined): LoginPlan {
  if (pairing === undefined) return { kind: "create" };
  const code = pairing.replace(/[\s-]/g, "");
  if (PairingCodeText.safeParse(code).success) return { kind: "code", code };
  if (pairing.includes("#"))
    return { kind: "link", ...refusedAsInvalidRequest(() => parsePairingLink(pairing)) };
  throw new RingbackError("invalid_request", "Expected a pairing link (…/#pair=…&key=…) or a 12-digit code.");
}

/**
 * The key this computer will hold once logged in, when it is known before the relay answers: a link's, or its own
 * (kept) for a new account without a passphrase. A passphrase key is salted with the account's id: null.
 */
function keyBeforeJoining(
  plan: LoginPlan,
  passphrase: string | undefined,
  config: ConfigFile,
): E2eKey | null {
  if (plan.kind === "link") return plan.key;
  if (plan.kind === "create" && passphrase === undefined) return currentE2eKey(config);
  return null;
}

type NewKey = { key: E2eKey; source: E2eKeySource } | undefined;

/**
 * How the login gets the key the account uses, checked before a pairing code is spent (undefined keeps the daemon's
 * key). A passphrase key is derived once the account is known: it is salted with the account's id.
 */
function keyForLogin(
  plan: LoginPlan,
  passphrase: string | undefined,
): (credentials: DeviceCredentials) => Promise<NewKey> {
  if (plan.kind === "link") return async () => ({ key: plan.key, source: "imported" });
  if (passphrase === undefined) {
    if (plan.kind === "code") {
      throw new RingbackError(
        "passphrase_too_short",
        "Joining with a 12-digit code needs the account's passphrase (or use the pairing link instead).",
      );
    }
    return async () => undefined;
  }
  if (!isPassphraseLongEnough(passphrase)) throw new RingbackError("passphrase_too_short");
  return async (credentials) => ({
    key: await deriveKeyFromPassphrase(passphrase, credentials.accountId),
    source: "passphrase",
  });
}

async function createAccount(
  api: RelayApi,
  deviceName: string,
  claimCode: string | undefined,
): Promise<DeviceCredentials> {
  const setup = await api.setup();
  if (setup.claimRequired && claimCode === undefined) {
    throw new RingbackError(
      "claim_code_required",
      `The relay at ${api.serverUrl} needs its claim code (printed once by ringback-relay at its start): ` +
        "ringback login --claim-code <code>",
    );
  }
  if (!setup.claimRequired && !setup.openSignup) {
    throw new RingbackError(
      "claim_code_required",
      `The relay at ${api.serverUrl} already has its account: join it with a pairing link from a paired ` +
        "device (Settings › Devices › Add a device): ringback login '<link>'",
    );
  }
  return api.createAccount({
    deviceName,
    deviceKind: DEVICE_KIND,
    ...(claimCode === undefined ? {} : { claimCode }),
  });
}

async function saveIdentity(
  config: ConfigFile,
  serverUrl: string,
  credentials: DeviceCredentials & { deviceName: string },
  newKey: NewKey,
  now: Date,
): Promise<void> {
  const { accountId, deviceId, deviceToken, deviceName } = credentials;
  await config.update((raw) => {
    const next = { ...raw, serverUrl, relay: { deviceToken, accountId, deviceId, deviceName } };
    if (!newKey) return next;
    const e2e = typeof raw.e2e === "object" && raw.e2e !== null ? raw.e2e : {};
    return { ...next, e2e: { ...e2e, key: newKey.key, source: newKey.source, updatedAt: now.toISOString() } };
  });
}
