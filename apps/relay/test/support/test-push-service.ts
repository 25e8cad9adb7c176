import { execFile } from "node:child_process";
import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  verify,
} from "node:crypto";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Agent, createServer, type Server } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";

/*
 * A push service the project owns: the receiving side of RFC 8030 over HTTPS on 127.0.0.1, checking the VAPID
 * authorisation (RFC 8292, ES256 verified here with node:crypto) and decrypting each payload (RFC 8291 aes128gcm:
 * ECDH P-256 + HKDF-SHA-256 + AES-128-GCM, written here independently of the relay's web-push library) with the
 * subscription's own private key, as a browser would. Tests script its answers (410, 429 with Retry-After, ...).
 * Only node: built-ins, so `node bench/*.ts` can load it too.
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

interface Receiver {
  readonly id: string;
  readonly ecdh: ECDH;
  readonly publicKey: Buffer;
  readonly authSecret: Buffer;
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
  /** Waits until `check` passes over what was received (re-checked on every push). */
  waitFor<T>(
    check: (received: readonly ReceivedPush[]) => T | undefined,
    what: string,
    timeoutMs?: number,
  ): Promise<T>;
  /** Called on every push, after it was decrypted and answered. */
  onPush: ((push: ReceivedPush) => void) | null;
  close(): Promise<void>;
}

const execFileAsync = promisify(execFile);
const SALT_BYTES = 16;
const TAG_BYTES = 16;
const P256_POINT_BYTES = 65;
const VAPID_MAX_LIFETIME_S = 24 * 60 * 60;

export async function startTestPushService(): Promise<TestPushService> {
  const dir = await mkdtemp(join(tmpdir(), "ringback-push-service-"));
  const keyPath = join(dir, "key.pem");
  const certificatePath = join(dir, "cert.pem");
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
  const waiters = new Set<() => void>();
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
    waitFor(check, what, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const run = () => {
          const value = check(received);
          if (value === undefined) return;
          waiters.delete(run);
          clearTimeout(timer);
          resolve(value);
        };
        const timer = setTimeout(() => {
          waiters.delete(run);
          reject(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`));
        }, timeoutMs);
        waiters.add(run);
        run();
      });
    },
    async close() {
      service.agent.destroy();
      server.closeAllConnections();
      const closed = once(server, "close");
      server.close();
      await closed;
      await rm(dir, { recursive: true, force: true });
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
    for (const run of [...waiters]) run();
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("The push service has no port.");
  origin = `https://127.0.0.1:${address.port}`;
  return service;
}

/** RFC 8291 §3.4 and RFC 8188: the receiving side, with the subscription's private key and auth secret. */
function decryptAes128gcm(body: Buffer, receiver: Receiver): string {
  const salt = body.subarray(0, SALT_BYTES);
  const recordSize = body.readUInt32BE(SALT_BYTES);
  const keyIdLength = body.readUInt8(SALT_BYTES + 4);
  if (keyIdLength !== P256_POINT_BYTES) throw new Error(`key id of ${keyIdLength} bytes, not a P-256 point`);
  const headerLength = SALT_BYTES + 5 + keyIdLength;
  const senderPublicKey = body.subarray(SALT_BYTES + 5, headerLength);
  const ecdhSecret = receiver.ecdh.computeSecret(senderPublicKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), receiver.publicKey, senderPublicKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, receiver.authSecret, keyInfo, 32));
  const contentKey = Buffer.from(
    hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16),
  );
  const baseNonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const records = body.subarray(headerLength);
  if (records.length === 0) throw new Error("no records");
  const parts: Buffer[] = [];
  for (let offset = 0, index = 0; offset < records.length; offset += recordSize, index++) {
    const record = records.subarray(offset, Math.min(offset + recordSize, records.length));
    const isLast = offset + recordSize >= records.length;
    const nonce = Buffer.from(baseNonce);
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ index) >>> 0, 8);
    const decipher = createDecipheriv("aes-128-gcm", contentKey, nonce);
    decipher.setAuthTag(record.subarray(record.length - TAG_BYTES));
    const plain = Buffer.concat([
      decipher.update(record.subarray(0, record.length - TAG_BYTES)),
      decipher.final(),
    ]);
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    const delimiter = plain[end];
    if (delimiter !== (isLast ? 2 : 1)) throw new Error(`record ${index} has padding delimiter ${delimiter}`);
    parts.push(plain.subarray(0, end));
  }
  return Buffer.concat(parts).toString("utf8");
}

/** RFC 8292 §3: `vapid t=<JWT>, k=<public key>`; the JWT is ES256 over the push service's origin. */
function readVapid(
  authorization: string | undefined,
  audience: string,
): { publicKey: string | null; subject: string | null; problem: string | null } {
  const token = authorization?.match(/(?:^|[\s,])t=([^,\s]+)/)?.[1];
  const publicKey = authorization?.match(/(?:^|[\s,])k=([^,\s]+)/)?.[1] ?? null;
  if (!authorization?.startsWith("vapid ") || !token || !publicKey) {
    return { publicKey, subject: null, problem: "no vapid authorisation" };
  }
  const [head = "", claims = "", signature = ""] = token.split(".");
  const point = Buffer.from(publicKey, "base64url");
  if (point.length !== P256_POINT_BYTES || point[0] !== 4) {
    return { publicKey, subject: null, problem: "k is not an uncompressed P-256 point" };
  }
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const isSigned = verify(
    "sha256",
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!isSigned) return { publicKey, subject: null, problem: "the VAPID token's signature does not verify" };
  const header = JSON.parse(Buffer.from(head, "base64url").toString("utf8")) as { alg?: string };
  const body = JSON.parse(Buffer.from(claims, "base64url").toString("utf8")) as {
    aud?: string;
    exp?: number;
    sub?: string;
  };
  const subject = body.sub ?? null;
  const nowSeconds = Date.now() / 1000;
  if (header.alg !== "ES256") return { publicKey, subject, problem: "the VAPID token is not ES256" };
  if (body.aud !== audience) return { publicKey, subject, problem: `the VAPID audience is ${body.aud}` };
  if (typeof body.exp !== "number" || body.exp < nowSeconds || body.exp > nowSeconds + VAPID_MAX_LIFETIME_S) {
    return { publicKey, subject, problem: "the VAPID token's exp is out of range" };
  }
  return { publicKey, subject, problem: null };
}
