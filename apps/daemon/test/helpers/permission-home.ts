import type { E2eKey } from "@ringback/e2e-crypto";
import type { DaemonEventPost } from "@ringback/protocol";
import { eventually, makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll } from "vitest";
import type { DaemonProcess } from "./daemon-process.js";
import type { HostileRelay } from "./hostile-relay.js";
import { askAsTheHook, type HookAsk, openCall } from "./permission-asks.js";
import { startLinkedDaemon } from "./relayed-daemon.js";

export { COMPUTER_ID } from "./daemon-process.js";

/**
 * A real daemon process linked to a relay the test controls (the hostile one: it passes messages on and can replay,
 * alter or invent them), with its permission wait shortened to `waitMs` and its grace before ringing `graceMs` (none
 * unless given: each ring would wait for it).
 */
export interface PermissionHome extends AsyncDisposable {
  readonly path: string;
  readonly relay: HostileRelay;
  readonly daemon: DaemonProcess;
  readonly key: E2eKey;
  readonly localKey: string;
  /** A local request with the local key, as the desktop app or `ringback away` sends it. */
  local(method: string, path: string, body?: unknown): Promise<Response>;
  /** Asks as the hook does and resolves once the "needs you" call is posted, with the call as a device opens it. */
  ring(body: unknown): Promise<{ hook: HookAsk; post: DaemonEventPost; digest: string }>;
}

interface PermissionHomeOptions {
  readonly waitMs: number;
  readonly graceMs?: number;
}

export async function startPermissionHome(options: PermissionHomeOptions): Promise<PermissionHome> {
  const directory = await makeTemporaryDirectory();
  const { relay, daemon, key, localKey } = await startLinkedDaemon(directory.path, {
    env: {
      RINGBACK_PERMISSION_WAIT_MS: String(options.waitMs),
      RINGBACK_PERMISSION_GRACE_MS: String(options.graceMs ?? 0),
    },
  });
  const local = (method: string, path: string, body?: unknown) =>
    fetch(`${daemon.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  async function ring(body: unknown) {
    const before = relay.posts.length;
    const hook = askAsTheHook(daemon, localKey, body);
    const post = await eventually(() => relay.posts[before], {
      what: "the needs-you call's post",
      on: relay.changes,
    });
    const call = await openCall(key, post);
    const digest = call.needsYou?.toolInputDigest;
    if (!digest) throw new Error("the call carries no ask");
    return { hook, post, digest };
  }
  const close = async () => {
    await daemon.kill();
    await relay.close();
    await directory.remove();
  };
  return {
    path: directory.path,
    relay,
    daemon,
    key,
    localKey,
    local,
    ring,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * One permission home for a whole test file (or the describe block it is called in): started before its tests,
 * stopped after them; read it inside a test.
 */
export function permissionHomeForFile(options: PermissionHomeOptions): () => PermissionHome {
  let home: PermissionHome | undefined;
  beforeAll(async () => {
    home = await startPermissionHome(options);
  });
  afterAll(async () => {
    await home?.[Symbol.asyncDispose]();
  });
  return () => {
    if (!home) throw new Error("the permission home is read before it started");
    return home;
  };
}
