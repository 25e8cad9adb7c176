import {
  CreateAccountRequest,
  type DeviceCredentials,
  RELAY_SMALL_BODY_MAX_BYTES,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import { boundedBody } from "../http/body-limit.js";
import { clientAddress } from "../http/client-address.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import { assertCodeAttemptsLeft, recordFailedCodeAttempt } from "../runtime/code-attempts.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import { codeDigits, hashSecret, newDeviceWithToken, newId } from "../runtime/secrets.js";
import { assertSignupAllowed } from "../runtime/signup-limits.js";

const ACCOUNTS_CLOSED =
  "This relay already has its owner: a new device joins that account with a pairing code.";

/** `POST /v1/accounts`: the first device creates an account (claim code, unless signup is open). */
export function accountRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.post("/accounts", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    runtime.disk.assertRoom();
    const body = await readJson(c, CreateAccountRequest);
    const { device, deviceToken } = newDeviceWithToken(body.deviceName, body.deviceKind);
    const accountId = newId("acc");
    const now = runtime.clock.now();
    if (runtime.config.openSignup) {
      await assertSignupAllowed(runtime, clientAddress(c, runtime.config.behindProxy));
      await runtime.store.createAccount({ accountId, device, now });
    } else {
      if (await runtime.store.hasAccounts()) throw new RingbackError("claim_code_required", ACCOUNTS_CLOSED);
      if (!body.claimCode) throw new RingbackError("claim_code_required");
      const address = clientAddress(c, runtime.config.behindProxy);
      await assertCodeAttemptsLeft(runtime, address);
      const claimCodeHash = hashSecret(codeDigits(body.claimCode));
      const outcome = await runtime.store.claimRelay({ claimCodeHash, accountId, device, now });
      if (outcome === "already_claimed") throw new RingbackError("claim_code_required", ACCOUNTS_CLOSED);
      if (outcome === "invalid_claim_code") {
        await recordFailedCodeAttempt(runtime, address);
        throw new RingbackError("claim_code_required", "The claim code is wrong.");
      }
    }
    runtime.log.line(`account created account=${accountId} device=${device.id} kind=${device.kind}`);
    const credentials: DeviceCredentials = { accountId, deviceId: device.id, deviceToken };
    return c.json(credentials, 201);
  });
  return routes;
}
