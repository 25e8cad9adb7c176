import { sealedPlaintextBytes } from "@ringback/e2e-crypto";
import {
  FLEET_PAD_STEP_BYTES,
  FLEET_SEALED_PLAINTEXT_MAX_BYTES,
  FleetStatePut,
  type RelayedFleet,
  type RelayedFleetState,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import { RateLimitedError } from "../runtime/code-attempts.js";
import { passOnFleetState, relayedFleetState } from "../runtime/fleet-states.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";

/**
 * A computer's states are taken at most once in this time: its daemon sends one per few seconds at most
 * (`FLEET_UPDATE_MIN_INTERVAL_MS`), so a faster computer is broken or hostile, and one computer cannot keep the
 * account's streams busy.
 */
export const FLEET_PUT_MIN_INTERVAL_MS = 1000;

/**
 * Holds the largest state a computer may put (base64url of `FLEET_SEALED_PLAINTEXT_MAX_BYTES` and its tag, about
 * 44 KiB, and the JSON around it); a larger body is refused before it is read.
 */
const FLEET_BODY_MAX_BYTES = 64 * 1024;

/**
 * `PUT /v1/daemon/fleet` (a computer's latest fleet state, sealed and padded) and `GET /v1/fleet` (every computer's,
 * for any device of the account). The relay checks only what it can without the key: the padded size.
 */
export function fleetRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();

  routes.put(
    "/daemon/fleet",
    requireDevice(runtime.store, runtime.clock),
    async (c, next) => {
      if (c.get("device").kind !== "computer") {
        throw new RingbackError("computer_only", "Only a computer of the account puts its fleet state.");
      }
      runtime.disk.assertRoom();
      await next();
    },
    boundedBody(runtime, FLEET_BODY_MAX_BYTES),
    async (c) => {
      const device = c.get("device");
      const body = await readJson(c, FleetStatePut);
      assertPadded(body.sealed);
      const now = runtime.clock.now();
      const outcome = await runtime.store.putFleetState({
        accountId: device.accountId,
        computerId: device.id,
        sealed: body.sealed,
        now,
        minIntervalMs: FLEET_PUT_MIN_INTERVAL_MS,
      });
      if (outcome.kind === "too-soon") {
        throw new RateLimitedError(
          Math.max(0, outcome.retryAt - now),
          `A computer puts its fleet state at most once per ${FLEET_PUT_MIN_INTERVAL_MS} ms; send the latest later.`,
        );
      }
      passOnFleetState(runtime, device.accountId, outcome.record);
      runtime.log.line(`fleet state stored computer=${device.id} bytes=${body.sealed.length}`);
      return c.json(relayedFleetState(outcome.record) satisfies RelayedFleetState, 200);
    },
  );

  routes.get("/fleet", requireDevice(runtime.store, runtime.clock), async (c) => {
    const records = await runtime.store.fleetStates(c.get("device").accountId);
    const fleet: RelayedFleet = { computers: records.map(relayedFleetState) };
    return c.json(fleet);
  });

  return routes;
}

/** The plaintext's size, read without the key, must be whole steps and within the limit, so it tells nothing more. */
function assertPadded(sealed: string): void {
  let bytes: number;
  try {
    bytes = sealedPlaintextBytes(sealed);
  } catch {
    throw new RingbackError("invalid_request", "The fleet state is not a well-formed sealed string.");
  }
  if (bytes === 0 || bytes % FLEET_PAD_STEP_BYTES !== 0) {
    throw new RingbackError(
      "invalid_request",
      `A fleet state is padded to a multiple of ${FLEET_PAD_STEP_BYTES} bytes before it is sealed.`,
    );
  }
  if (bytes > FLEET_SEALED_PLAINTEXT_MAX_BYTES) {
    throw new RingbackError(
      "invalid_request",
      `A fleet state is at most ${FLEET_SEALED_PLAINTEXT_MAX_BYTES} bytes before it is sealed.`,
    );
  }
}
