import { execFile } from "node:child_process";
import { createECDH, randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Agent, createServer, type Server } from "node:https";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { Changes, eventually } from "./eventually.js";
import { makeTemporaryDirectory } from "./temporary-directory.js";
import { decryptAes128gcm, type PushReceiverKeys, readVapid } from "./web-push-receiving.js";

/*
 * A push service the project owns: the receiving side of RFC 8030 over HTTPS on 127.0.0.1, checking the VAPID
 * authorisation (RFC 8292, ES256 verified here with node:crypto) and decrypting each payload (RFC 8291 aes128gcm:
 * ECDH P-256 + HKDF-SHA-256 + AES-128-GCM, written here independently of the relay's web-push library) with the
 * subscription's own private key, as a browser would. Tests script its answers (410, 429 with Retry-After, ...).
 */

/** A subscription as a browser hands it to the page (`PushSubscription.toJSON()`). */
export interface TestSubscription {
  readonly id: string;
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** One POST the service received, decrypted when it answered 2xx. */
export interface ReceivedPush {
  readonly subscriptionId: string;
  readonly status: number;
  /** `performance.now()` when the body had been read and decrypted. */
  readonly receivedAt: number;
  readonly ttl: number | null;
  readonly urgency: string | null;
  readonly topic: string | null;
  readonly contentEncoding: string | null;
  /** The `k` of the VAPID authorisation: the sender's public key. */
  readonly vapidPublicKey: string | null;
  readonly vapidSubject: string | null;
  /** The decrypted payload as text; null when refused before decrypting. */
  readonly payload: string | null;
  /** Why the service refused it on its own (bad VAPID token, undecryptable body); null when it did not. */
  readonly problem: string | null;
}

/** A scripted answer for the next push to a subscription. */
interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Record<string, string>;
  /** The answer waits for this (a push service that is slow to answer). */
  readonly hold?: Promise<void>;
}

interface Receiver extends PushReceiverKeys {
  readonly id: string;
  readonly applicationServerKey: string | null;
  readonly script: ScriptedAnswer[];
}

export interface TestPushService extends AsyncDisposable {
  readonly origin: string;
  /** Trusts this service's self-signed certificate: give it to the relay as its push agent. */
  readonly agent: Agent;
  /** The certificate (PEM), for a relay in another process (`NODE_EXTRA_CA_CERTS`). */
  readonly certificatePath: string;
  readonly received: readonly ReceivedPush[];
  /** A fresh browser-side subscription; with `applicationServerKey`, pushes signed by another key get 403. */
  subscribe(applicationServerKey?: string): TestSubscription;
  /** The answers the next pushes to `subscriptionId` get, in order; after them, 201. */
  script(subscriptionId: string, ...answers: ScriptedAnswer[]): void;
  /** Successfully delivered pushes (2xx) for one subscription, oldest first. */
  delivered(subscriptionId: string): ReceivedPush[];
  /** Waits until `check` passes over what was received (re-checked on every push; `checks`: see `eventually`). */
  waitFor<T>(
    check: (received: readonly ReceivedPush[]) => T | undefined,
    what: string,
    checks?: number,
  ): Promise<T>;
  /** Called on every push, after it was decrypted and answered. */
  onPush: ((push: ReceivedPush) => void) | null;
  close(): Promise<void>;
}

const execFileAsync = promisify(execFile);

export async function startTestPushService(): Promise<TestPushService> {
  const directory = await makeTemporaryDirectory("ringback-push-service-");
  const keyPath = join(directory.path, "key.pem");
  const certificatePath = join(directory.path, "cert.pem");
  await execFileAsync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-days",
    "2",
    "-subj",
    "/CN=127.0.0.1",
    "-addext",
    "subjectAltName=IP:127.0.0.1",
    "-keyout",
    keyPath,
    "-out",
    certificatePath,
  ]);
  const [key, cert] = await Promise.all([readFile(keyPath), readFile(certificatePath)]);
  const receivers = new Map<string, Receiver>();
  const received: ReceivedPush[] = [];
  const changes = new Changes();
  let origin = "";

  const service: TestPushService = {
    get origin() {
      return origin;
    },
    agent: new Agent({ ca: cert, keepAlive: true }),
    certificatePath,
    received,
    onPush: null,
    subscribe(applicationServerKey) {
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const id = randomBytes(12).toString("base64url");
      const authSecret = randomBytes(16);
      receivers.set(id, {
        id,
        ecdh,
        publicKey,
        authSecret,
        applicationServerKey: applicationServerKey ?? null,
        script: [],
      });
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: publicKey.toString("base64url"), auth: authSecret.toString("base64url") },
      };
    },
    script(subscriptionId, ...answers) {
      receiverOf(subscriptionId).script.push(...answers);
    },
    delivered: (subscriptionId) =>
      received.filter((push) => push.subscriptionId === subscriptionId && push.status < 300),
    waitFor: <T>(
      check: (received: readonly ReceivedPush[]) => T | undefined,
      what: string,
      checks?: number,
    ) => eventually(() => check(received), { what, checks, on: changes }) as Promise<T>,
    async close() {
      service.agent.destroy();
      server.closeAllConnections();
      const closed = once(server, "close");
      server.close();
      await closed;
      await directory.remove();
    },
    [Symbol.asyncDispose]: () => service.close(),
  };

  function receiverOf(id: string): Receiver {
    const receiver = receivers.get(id);
    if (!receiver) throw new Error(`No test subscription ${id}.`);
    return receiver;
  }

  const server: Server = createServer({ key, cert }, (request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const id = request.url?.match(/^\/push\/([A-Za-z0-9_-]+)$/)?.[1];
    const receiver = id ? receivers.get(id) : undefined;
    if (request.method !== "POST" || !receiver) {
      response.writeHead(404).end();
      return;
    }
    const vapid = readVapid(request.headers.authorization, origin);
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === "string" ? value : null;
    };
    let problem = vapid.problem;
    if (!problem && receiver.applicationServerKey && vapid.publicKey !== receiver.applicationServerKey) {
      problem = "the VAPID key is not the one this subscription was made with";
    }
    let payload: string | null = null;
    if (!problem) {
      if (header("content-encoding") !== "aes128gcm") problem = "Content-Encoding is not aes128gcm";
      else if (header("ttl") === null) problem = "no TTL header";
    }
    if (!problem) {
      try {
        payload = decryptAes128gcm(body, receiver);
      } catch (error) {
        problem = `cannot decrypt: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    const scripted = problem ? undefined : receiver.script.shift();
    const status = problem
      ? vapid.problem
        ? 401
        : problem.startsWith("the VAPID")
          ? 403
          : 400
      : (scripted?.status ?? 201);
    const push: ReceivedPush = {
      subscriptionId: receiver.id,
      status,
      receivedAt: performance.now(),
      ttl: header("ttl") === null ? null : Number(header("ttl")),
      urgency: header("urgency"),
      topic: header("topic"),
      contentEncoding: header("content-encoding"),
      vapidPublicKey: vapid.publicKey,
      vapidSubject: vapid.subject,
      payload,
      problem,
    };
    await scripted?.hold;
    received.push(push);
    const headers = status < 300 ? { Location: `${origin}/message/${randomBytes(8).toString("hex")}` } : {};
    response.writeHead(status, { ...headers, ...scripted?.headers }).end(problem ?? "");
    service.onPush?.(push);
    changes.notify();
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The push service has no port.");
  origin = `https://127.0.0.1:${address.port}`;
  return service;
}
