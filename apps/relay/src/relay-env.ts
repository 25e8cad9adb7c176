import type { HttpBindings } from "@hono/node-server";
import type { DeviceRecord } from "./store/store.js";

/** Hono's environment for the relay: node bindings (absent in in-process `app.request()` tests) and the device. */
export interface RelayEnv {
  Bindings: Partial<HttpBindings>;
  /** `unmatched`: no route took the request (set by the not-found handler, read by the request log). */
  Variables: { device: DeviceRecord; unmatched: true };
}
