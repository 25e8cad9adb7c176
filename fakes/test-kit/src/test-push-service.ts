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
  const { key, cert, certificatePath } = await selfSignedCertificate(directory.path);
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
      const receiver = newReceiver(applicationServerKey ?? null);
      receivers.set(receiver.id, receiver);
      return {
        id: receiver.id,
        endpoint: `${origin}/push/${receiver.id}`,
        keys: {
          p256dh: receiver.publicKey.toString("base64url"),
          auth: receiver.authSecret.toString("base64url"),
        },
      };
    },
    script(subscriptionId, ...answers) {
      const receiver = receivers.get(subscriptionId);
      if (!receiver) throw new Error(`No test subscription ${subscriptionId}.`);
      receiver.script.push(...answers);
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

  const server: Server = createServer({ key, cert }, (request, response) => {
    const receive = (push: ReceivedPush) => {
      received.push(push);
      return () => {
        service.onPush?.(push);
        changes.notify();
      };
    };
    answerPush(request, response, { receivers, origin, receive }).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The push service has no port.");
  origin = `https://127.0.0.1:${address.port}`;
  return service;
}

/** A key and a certificate for 127.0.0.1 (P-256, two days), made with openssl in `directory`. */
async function selfSignedCertificate(
  directory: string,
): Promise<{ key: Buffer; cert: Buffer; certificatePath: string }> {
  const keyPath = join(directory, "key.pem");
  const certificatePath = join(directory, "cert.pem");
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
  return { key, cert, certificatePath };
}

/** A browser-side subscription's keys: its own ECDH pair and auth secret. */
function newReceiver(applicationServerKey: string | null): Receiver {
  const ecdh = createECDH("prime256v1");
  const publicKey = ecdh.generateKeys();
  return {
    id: randomBytes(12).toString("base64url"),
    ecdh,
    publicKey,
    authSecret: randomBytes(16),
    applicationServerKey,
    script: [],
  };
}

/**
 * Reads, checks and answers one POST to `/push/<id>`: 401 for a bad VAPID token, 403 for another key's, 400 for a
 * body it cannot take, else the subscription's next scripted answer (201 without one). `receive` records the push
 * before the answer goes out and returns what to run after it.
 */
async function answerPush(
  request: IncomingMessage,
  response: ServerResponse,
  context: {
    readonly receivers: ReadonlyMap<string, Receiver>;
    readonly origin: string;
    readonly receive: (push: ReceivedPush) => () => void;
  },
): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  const id = request.url?.match(/^\/push\/([A-Za-z0-9_-]+)$/)?.[1];
  const receiver = id ? context.receivers.get(id) : undefined;
  if (request.method !== "POST" || !receiver) {
    response.writeHead(404).end();
    return;
  }
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === "string" ? value : null;
  };
  const vapid = readVapid(request.headers.authorization, context.origin);
  const { problem, payload } = openPush(body, receiver, vapid, header);
  const scripted = problem ? undefined : receiver.script.shift();
  const status = problem ? refusalStatus(problem, vapid.problem !== null) : (scripted?.status ?? 201);
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
  const afterAnswer = context.receive(push);
  const headers =
    status < 300 ? { Location: `${context.origin}/message/${randomBytes(8).toString("hex")}` } : {};
  response.writeHead(status, { ...headers, ...scripted?.headers }).end(problem ?? "");
  afterAnswer();
}

/** The push's payload, decrypted once its VAPID token, key, encoding and TTL pass; else why not. */
function openPush(
  body: Buffer,
  receiver: Receiver,
  vapid: ReturnType<typeof readVapid>,
  header: (name: string) => string | null,
): { problem: string | null; payload: string | null } {
  if (vapid.problem) return { problem: vapid.problem, payload: null };
  if (receiver.applicationServerKey && vapid.publicKey !== receiver.applicationServerKey) {
    return { problem: "the VAPID key is not the one this subscription was made with", payload: null };
  }
  if (header("content-encoding") !== "aes128gcm")
    return { problem: "Content-Encoding is not aes128gcm", payload: null };
  if (header("ttl") === null) return { problem: "no TTL header", payload: null };
  try {
    return { problem: null, payload: decryptAes128gcm(body, receiver) };
  } catch (error) {
    return {
      problem: `cannot decrypt: ${error instanceof Error ? error.message : String(error)}`,
      payload: null,
    };
  }
}

function refusalStatus(problem: string, isVapidProblem: boolean): number {
  if (isVapidProblem) return 401;
  return problem.startsWith("the VAPID") ? 403 : 400;
}
