import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createSecureContext } from "node:tls";
import { RelayUsageError } from "./cli-options-error.js";

/** The certificate chain and private key the relay terminates TLS with (PEM). */
export interface TlsFiles {
  readonly cert: string;
  readonly key: string;
  readonly certPath: string;
}

/**
 * `--tls-cert FILE --tls-key FILE`: both or neither; each readable PEM; and a key that belongs to the certificate
 * (checked now, so a mistake is a clear message at start instead of failed handshakes later).
 */
export function readTlsFiles(certPath: string | undefined, keyPath: string | undefined): TlsFiles | null {
  if (certPath === undefined && keyPath === undefined) return null;
  if (certPath === undefined || keyPath === undefined)
    throw new RelayUsageError(
      "--tls-cert and --tls-key go together: give both files, or neither (then put Caddy in front).",
    );
  const cert = readPem(certPath, "--tls-cert");
  const key = readPem(keyPath, "--tls-key");
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    const reason =
      (error as { code?: string }).code ?? (error instanceof Error ? error.message : String(error));
    throw new RelayUsageError(
      reason === "ERR_OSSL_X509_KEY_VALUES_MISMATCH" || /key values mismatch/i.test(String(error))
        ? `--tls-key ${resolve(keyPath)} is not the key of the certificate in --tls-cert ${resolve(certPath)}.`
        : `--tls-cert / --tls-key cannot be used (${reason}): give a PEM certificate chain and its PEM private key.`,
    );
  }
  return { cert, key, certPath: resolve(certPath) };
}

function readPem(path: string, flag: string): string {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "does not exist"
        : code === "EACCES"
          ? "cannot be read (permissions)"
          : `cannot be read (${code})`;
    throw new RelayUsageError(`${flag} ${absolute} ${why}.`);
  }
  if (!/^-----BEGIN [A-Z0-9 ]+-----\r?$/m.test(text))
    throw new RelayUsageError(`${flag} ${absolute} is not a PEM file.`);
  return text;
}
