import { scryptAsync } from "@noble/hashes/scrypt.js";
import { KEY_BYTES, SCRYPT_BLOCK_SIZE, SCRYPT_COST, SCRYPT_PARALLELISM } from "./format.js";

/** Which implementation: audited JavaScript (@noble/hashes, browsers and workers), or Node's own. */
export type ScryptBackend = "javascript" | "node";

/** Node's scrypt (OpenSSL), as much of it as is used here, typed by hand: the package has no Node types. */
interface NodeScrypt {
  scrypt(
    password: Uint8Array,
    salt: Uint8Array,
    keyLength: number,
    options: { N: number; r: number; p: number; maxmem: number },
    callback: (error: Error | null, key: Uint8Array) => void,
  ): void;
}

/** Room for scrypt's 128 * N * r bytes and its other buffers; Node refuses by default above 32 MiB. */
const SCRYPT_MAX_MEMORY_BYTES = 256 * 1024 * 1024;

/** node:crypto, found at run time and never imported (see aes-gcm.ts): about twice as fast as JavaScript. */
function nodeScrypt(): NodeScrypt | undefined {
  const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
  return runtime?.getBuiltinModule?.("node:crypto") as NodeScrypt | undefined;
}

/** The backend used unless one is asked for: Node's in Node, JavaScript everywhere else. */
const DEFAULT_SCRYPT_BACKEND: ScryptBackend = nodeScrypt() === undefined ? "javascript" : "node";

/**
 * scrypt (RFC 7914) with the version 2 parameters: N = SCRYPT_COST, r = SCRYPT_BLOCK_SIZE, p = SCRYPT_PARALLELISM,
 * 32 bytes. Both backends give the same bytes (the test vectors run on each). The JavaScript one yields to the
 * event loop as it goes, so a page stays responsive.
 */
export async function scryptKeyBytes(
  password: Uint8Array,
  salt: Uint8Array,
  backend: ScryptBackend = DEFAULT_SCRYPT_BACKEND,
): Promise<Uint8Array> {
  const parameters = { N: SCRYPT_COST, r: SCRYPT_BLOCK_SIZE, p: SCRYPT_PARALLELISM };
  const node = backend === "node" ? nodeScrypt() : undefined;
  if (backend === "node" && node === undefined) throw new Error("Node's crypto is not available here.");
  if (node === undefined) return scryptAsync(password, salt, { ...parameters, dkLen: KEY_BYTES });
  return new Promise((resolve, reject) => {
    node.scrypt(
      password,
      salt,
      KEY_BYTES,
      { ...parameters, maxmem: SCRYPT_MAX_MEMORY_BYTES },
      (error, key) => (error ? reject(error) : resolve(new Uint8Array(key))),
    );
  });
}
