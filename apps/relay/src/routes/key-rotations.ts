import { sealedKeyId } from "@ringback/e2e-crypto";
import {
  KEY_ROTATIONS_KEPT_MAX,
  type KeyRotationList,
  KeyRotationNotice,
  type KeyRotationPosted,
  RELAY_SMALL_BODY_MAX_BYTES,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import type { KeyRotationRecord } from "../store/store.js";

/**
 * `GET /v1/key-rotations` and `POST /v1/key-rotations`: the account's key rotation notices, kept for its devices and
 * computers, opaque to the relay. Only a device with a live token reads them: a removed device (its token revoked
 * before its remover posts the notice) never does.
 */
export function keyRotationRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.use("/key-rotations", requireDevice(runtime.store, runtime.clock));

  routes.get("/key-rotations", async (c) => {
    const records = await runtime.store.keyRotations(c.get("device").accountId);
    const list: KeyRotationList = { rotations: records.map(listed) };
    return c.json(list);
  });

  routes.post("/key-rotations", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    runtime.disk.assertRoom();
    const device = c.get("device");
    const body = await readJson(c, KeyRotationNotice);
    let fromKeyId: string;
    try {
      fromKeyId = sealedKeyId(body.sealed);
    } catch {
      throw new RingbackError("invalid_request", "The notice is not a well-formed sealed string.");
    }
    const outcome = await runtime.store.addKeyRotation({
      accountId: device.accountId,
      rotationId: body.rotationId,
      fromKeyId,
      postedBy: device.id,
      sealed: body.sealed,
      now: runtime.clock.now(),
      keptMax: KEY_ROTATIONS_KEPT_MAX,
    });
    if (outcome.kind === "conflict") throw new RingbackError("key_rotation_conflict");
    if (outcome.kind === "created") {
      runtime.log.line(`key rotation kept rotation=${body.rotationId} by=${device.id}`);
    }
    const { rotationId, createdAt } = listed(outcome.record);
    const posted: KeyRotationPosted = { rotationId, createdAt };
    return c.json(posted, outcome.kind === "created" ? 201 : 200);
  });

  return routes;
}

function listed(record: KeyRotationRecord): KeyRotationList["rotations"][number] {
  return {
    rotationId: record.rotationId,
    sealed: record.sealed,
    createdAt: new Date(record.createdAt).toISOString(),
  };
}
