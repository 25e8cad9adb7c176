import {
  type DeviceInfo,
  type DeviceList,
  type DeviceRemoved,
  type DeviceRenamed,
  LINK_CLOSE_CODES,
  RELAY_SETTINGS_BODY_MAX_BYTES,
  RELAY_SMALL_BODY_MAX_BYTES,
  RenameDeviceRequest,
  RingbackError,
  SettingsRelayRequest,
  type SettingsRelayResult,
} from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import { publish, type RelayRuntime } from "../runtime/relay-runtime.js";
import type { DeviceRecord } from "../store/store.js";

/**
 * `GET /v1/devices`, `PUT /v1/devices/me/name`, `DELETE /v1/devices/<id>`, and the settings relay
 * `POST /v1/devices/<id>/settings`.
 */
export function deviceRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.use("/devices", requireDevice(runtime.store, runtime.clock));
  routes.use("/devices/*", requireDevice(runtime.store, runtime.clock));

  routes.get("/devices", async (c) => {
    const current = c.get("device");
    const devices = await runtime.store.listDevices(current.accountId);
    const linkedElsewhere = await runtime.cluster.linksHeldElsewhere(devices.map((device) => device.id));
    const list: DeviceList = {
      devices: devices.map((device) => deviceInfo(runtime, device, current.id, linkedElsewhere)),
    };
    return c.json(list);
  });

  // A device replaces its own name only. The name is opaque (sealed by the device), so no log line carries it.
  routes.put("/devices/me/name", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    runtime.disk.assertRoom();
    const current = c.get("device");
    const body = await readJson(c, RenameDeviceRequest);
    const isRenamed = await runtime.store.renameDevice({
      accountId: current.accountId,
      deviceId: current.id,
      name: body.name,
    });
    // Authenticated a moment ago: only a removal in between makes this miss, and the token is refused from then on.
    if (!isRenamed) throw new RingbackError("device_removed");
    runtime.log.line(`device renamed device=${current.id}`);
    const renamed: DeviceRenamed = { deviceId: current.id, name: body.name };
    return c.json(renamed);
  });

  routes.delete("/devices/:deviceId", async (c) => {
    const current = c.get("device");
    const deviceId = c.req.param("deviceId");
    const now = runtime.clock.now();
    const removal = await runtime.store.removeDevice({ accountId: current.accountId, deviceId, now });
    if (!removal.removed) throw new RingbackError("not_found", "No device with this id in this account.");
    publish(runtime, removal.entries);
    runtime.hub.closeDevice(deviceId);
    runtime.links.close(deviceId, LINK_CLOSE_CODES.deviceRemoved, "device removed");
    runtime.log.line(`device removed device=${deviceId} by=${current.id}`);
    const removed: DeviceRemoved = { deviceId, removed: true };
    return c.json(removed);
  });

  routes.post(
    "/devices/:deviceId/settings",
    // The target first: a request for no computer of this account is refused before its body (up to 4 MiB) is read.
    async (c, next) => {
      const target = await runtime.store.findDevice(c.get("device").accountId, c.req.param("deviceId"));
      if (target?.kind !== "computer")
        throw new RingbackError("not_found", "No computer with this id in this account.");
      await next();
    },
    boundedBody(runtime, RELAY_SETTINGS_BODY_MAX_BYTES),
    async (c) => {
      const body = await readJson(c, SettingsRelayRequest);
      const sealed = await runtime.settings.request(c.req.param("deviceId"), body.requestId, body.sealed, {
        senderDeviceId: c.get("device").id,
      });
      const result: SettingsRelayResult = { requestId: body.requestId, sealed };
      return c.json(result);
    },
  );

  return routes;
}

function deviceInfo(
  runtime: RelayRuntime,
  device: DeviceRecord,
  currentId: string,
  linkedElsewhere: ReadonlySet<string>,
): DeviceInfo {
  return {
    id: device.id,
    name: device.name,
    kind: device.kind,
    createdAt: new Date(device.createdAt).toISOString(),
    lastSeenAt: device.lastSeenAt === null ? null : new Date(device.lastSeenAt).toISOString(),
    // Streams are known per instance; daemon links across instances (their leases are in the database).
    online:
      runtime.hub.isOnline(device.id) || runtime.links.isOnline(device.id) || linkedElsewhere.has(device.id),
    isCurrent: device.id === currentId,
  };
}
