import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

const CA_DAYS = 730;
// Apple's clients refuse server certificates valid for more than 398 days.
const LEAF_DAYS = 397;
const RENEW_BEFORE_SECONDS = 30 * 24 * 3600;

function openssl(dir, ...args) {
  try {
    return execFileSync("openssl", args, { cwd: dir, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    if (error.code === "ENOENT") throw new Error("openssl is needed for --lan: apt install openssl");
    throw new Error(`openssl ${args[0]} failed: ${String(error.stderr ?? error.message).trim()}`);
  }
}

function isLeafGoodFor(dir, address) {
  if (!existsSync(join(dir, "leaf.crt")) || !existsSync(join(dir, "leaf.key"))) return false;
  try {
    openssl(dir, "x509", "-in", "leaf.crt", "-noout", "-checkend", String(RENEW_BEFORE_SECONDS));
    const names = openssl(dir, "x509", "-in", "leaf.crt", "-noout", "-ext", "subjectAltName");
    return names.includes(`IP Address:${address}`);
  } catch {
    return false;
  }
}

/**
 * A certificate authority of this computer's own, made once in `dir` (valid two years), and a server certificate it
 * signs for the LAN address (and loopback), issued again when the address changes or it nears its end. The phone
 * trusts the CA once; the relay serves the leaf.
 */
export function ensureLocalCertificates(dir, address) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let isCaNew = false;
  if (!existsSync(join(dir, "ca.crt")) || !existsSync(join(dir, "ca.key"))) {
    openssl(
      dir,
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:P-256",
      "-nodes",
      "-days",
      String(CA_DAYS),
      "-subj",
      `/CN=Ringback local CA (${hostname()})`,
      "-addext",
      "basicConstraints=critical,CA:TRUE",
      "-addext",
      "keyUsage=critical,keyCertSign,cRLSign",
      "-keyout",
      "ca.key",
      "-out",
      "ca.crt",
    );
    isCaNew = true;
  }
  let isLeafNew = false;
  if (isCaNew || !isLeafGoodFor(dir, address)) {
    openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "leaf.key");
    openssl(dir, "req", "-new", "-key", "leaf.key", "-subj", `/CN=${address}`, "-out", "leaf.csr");
    writeFileSync(
      join(dir, "leaf.ext"),
      `subjectAltName=IP:${address},IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
    );
    openssl(
      dir,
      "x509",
      "-req",
      "-in",
      "leaf.csr",
      "-CA",
      "ca.crt",
      "-CAkey",
      "ca.key",
      "-CAcreateserial",
      "-days",
      String(LEAF_DAYS),
      "-extfile",
      "leaf.ext",
      "-out",
      "leaf.crt",
    );
    isLeafNew = true;
  }
  return {
    caCertPath: join(dir, "ca.crt"),
    certPath: join(dir, "leaf.crt"),
    keyPath: join(dir, "leaf.key"),
    isCaNew,
    isLeafNew,
  };
}
