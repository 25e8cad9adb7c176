import {
  type DeviceCredentials,
  PAIRING_CODE_TTL_MS,
  type PairingCodeCreated,
  PairingCodeText,
  RELAY_SMALL_BODY_MAX_BYTES,
  RedeemPairingCodeRequest,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { clientAddress } from "../http/client-address.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import {
  assertCodeAttemptsLeft,
  RateLimitedError,
  recordFailedCodeAttempt,
} from "../runtime/code-attempts.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import { codeDigits, drawPairingCode, hashSecret, newDeviceWithToken } from "../runtime/secrets.js";

/** Draws before giving up when every drawn code collides with a live one (a trillion codes, few live). */
const PAIRING_CODE_DRAWS_MAX = 20;

/** `POST /v1/pairing-codes` (a device of the account) and `POST /v1/pairing-codes/redeem` (the joining device). */
export function pairingRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();

  routes.post("/pairing-codes", requireDevice(runtime.store, runtime.clock), async (c) => {
    const device = c.get("device");
    for (let draw = 0; draw < PAIRING_CODE_DRAWS_MAX; draw++) {
      const code = drawPairingCode();
      const now = runtime.clock.now();
      const expiresAt = now + PAIRING_CODE_TTL_MS;
      const isCreated = await runtime.store.createPairingCode({
        codeHash: hashSecret(code),
        accountId: device.accountId,
        createdBy: device.id,
        expiresAt,
        now,
      });
      if (isCreated) {
        const created: PairingCodeCreated = {
          code,
          expiresAt: new Date(expiresAt).toISOString(),
          ...(runtime.config.publicUrl ? { publicUrl: runtime.config.publicUrl } : {}),
        };
        return c.json(created, 201);
      }
    }
    throw new RingbackError("rate_limited", "No free pairing code was found; try again.");
  });

  routes.post("/pairing-codes/redeem", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    runtime.disk.assertRoom();
    const body = await readJson(c, RedeemPairingCodeRequest);
    const address = clientAddress(c, runtime.config.behindProxy);
    await assertCodeAttemptsLeft(runtime, address);
    const digits = codeDigits(body.code);
    const { device, deviceToken } = newDeviceWithToken(body.deviceName, body.deviceKind);
    const now = runtime.clock.now();
    const joined = PairingCodeText.safeParse(digits).success
      ? await runtime.store.redeemPairingCode({
          codeHash: hashSecret(digits),
          device,
          now,
          limits: {
            devicesMax: runtime.config.devicesPerAccountMax,
            pairingsMax: runtime.config.pairingsPerAccountMax,
            pairingWindowMs: runtime.config.pairingWindowMs,
          },
        })
      : ({ kind: "invalid" } as const);
    if (joined.kind === "invalid") {
      await recordFailedCodeAttempt(runtime, address);
      throw new RingbackError("invalid_pairing_code");
    }
    // The right code for a full account: the code stays live, and the owner learns what to do.
    if (joined.kind === "devices-full") {
      runtime.log.line(
        `pairing refused account=${joined.accountId}: ${runtime.config.devicesPerAccountMax} devices`,
      );
      throw new RingbackError(
        "device_limit",
        `The account has ${runtime.config.devicesPerAccountMax} devices, the most this relay allows: remove one (Settings › Devices) before adding another.`,
      );
    }
    if (joined.kind === "pairings-full") {
      runtime.log.line(
        `pairing refused account=${joined.accountId}: too many devices joined within the window`,
      );
      throw new RateLimitedError(
        joined.retryAt - now,
        `${runtime.config.pairingsPerAccountMax} devices joined this account within the hour; try again later.`,
      );
    }
    runtime.log.line(`device paired account=${joined.accountId} device=${device.id} kind=${device.kind}`);
    const credentials: DeviceCredentials = { accountId: joined.accountId, deviceId: device.id, deviceToken };
    return c.json(credentials, 201);
  });

  return routes;
}
