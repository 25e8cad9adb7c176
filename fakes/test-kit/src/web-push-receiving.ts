import { createDecipheriv, createPublicKey, type ECDH, hkdfSync, verify } from "node:crypto";

/*
 * The receiving side of Web Push, as a browser has it: RFC 8291 aes128gcm decryption and RFC 8292 VAPID checks,
 * written with node:crypto independently of the relay's web-push library.
 */

const SALT_BYTES = 16;
const TAG_BYTES = 16;
const P256_POINT_BYTES = 65;
const VAPID_MAX_LIFETIME_S = 24 * 60 * 60;

/** A subscription's own keys: its P-256 key pair and its auth secret. */
export interface PushReceiverKeys {
  readonly ecdh: ECDH;
  readonly publicKey: Buffer;
  readonly authSecret: Buffer;
}

/** RFC 8291 §3.4 and RFC 8188: the receiving side, with the subscription's private key and auth secret. */
export function decryptAes128gcm(body: Buffer, receiver: PushReceiverKeys): string {
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
export function readVapid(
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
