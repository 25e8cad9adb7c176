import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

/**
 * How long the CA (and the server certificate it signs, made with it) is valid. A phone that trusts the CA trusts
 * it for a month at most: short enough that a forgotten one soon stops mattering, long enough not to ask every day.
 */
export const CA_VALIDITY_DAYS = 30;
/** Both are made again when less than this is left, so that a run started now does not outlive them. */
const RENEW_BEFORE_SECONDS = 24 * 3600;
const FILES = ["ca.crt", "ca.key", "leaf.crt", "leaf.key"];

function openssl(dir, ...args) {
  try {
    return execFileSync("openssl", args, { cwd: dir, stdio: "pipe", encoding: "utf8" });
  } catch (error) {
    if (error.code === "ENOENT") throw new Error("openssl is needed for --lan: apt install openssl");
    throw new Error(`openssl ${args[0]} failed: ${String(error.stderr ?? error.message).trim()}`);
  }
}

/** The names the server certificate carries, and the only ones the CA may sign for (its name constraints). */
export function servedNames(address) {
  return { ips: [...new Set([address, "127.0.0.1"])], dnsNames: ["localhost"] };
}

function nameConstraints({ ips, dnsNames }) {
  const permitted = [
    ...ips.map((ip) => `permitted;IP:${ip}/255.255.255.255`),
    ...dnsNames.map((name) => `permitted;DNS:${name}`),
  ];
  return `nameConstraints=critical,${permitted.join(",")}`;
}

/** Why the CA in `dir` cannot serve `address` (missing, ending, made for other names), or null when it can. */
function replacementReason(dir, names) {
  if (!FILES.every((file) => existsSync(join(dir, file)))) return "missing";
  try {
    for (const file of ["ca.crt", "leaf.crt"])
      openssl(dir, "x509", "-in", file, "-noout", "-checkend", String(RENEW_BEFORE_SECONDS));
  } catch {
    return "expired";
  }
  try {
    const constraints = openssl(dir, "x509", "-in", "ca.crt", "-noout", "-ext", "nameConstraints");
    const permitted = new Set(constraints.match(/(?:IP|DNS):\S+/g) ?? []);
    const wanted = [
      ...names.ips.map((ip) => `IP:${ip}/255.255.255.255`),
      ...names.dnsNames.map((n) => `DNS:${n}`),
    ];
    const altNames = new X509Certificate(readFileSync(join(dir, "leaf.crt"))).subjectAltName ?? "";
    const isLeafFor = names.ips.every((ip) => altNames.split(", ").includes(`IP Address:${ip}`));
    return permitted.size === wanted.length && wanted.every((name) => permitted.has(name)) && isLeafFor
      ? null
      : "address";
  } catch {
    return "address";
  }
}

/** Makes a CA limited to `names` and the server certificate it signs for them, beside each other in `dir`. */
function makeCertificates(dir, names) {
  const day = new Date().toISOString().slice(0, 10);
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
    String(CA_VALIDITY_DAYS),
    "-subj",
    `/CN=Ringback local CA (${hostname()}) ${day}`,
    "-addext",
    "basicConstraints=critical,CA:TRUE,pathlen:0",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
    "-addext",
    nameConstraints(names),
    "-keyout",
    "ca.new.key",
    "-out",
    "ca.new.crt",
  );
  openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "leaf.new.key");
  openssl(dir, "req", "-new", "-key", "leaf.new.key", "-subj", `/CN=${names.ips[0]}`, "-out", "leaf.csr");
  const altNames = [...names.ips.map((ip) => `IP:${ip}`), ...names.dnsNames.map((name) => `DNS:${name}`)];
  writeFileSync(
    join(dir, "leaf.ext"),
    `subjectAltName=${altNames.join(",")}\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n`,
  );
  openssl(
    dir,
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.new.crt",
    "-CAkey",
    "ca.new.key",
    "-CAcreateserial",
    "-days",
    String(CA_VALIDITY_DAYS),
    "-extfile",
    "leaf.ext",
    "-out",
    "leaf.new.crt",
  );
  // All four at once, once all four are made: a failure half-way leaves the previous pair as it was.
  for (const file of FILES) renameSync(join(dir, file.replace(".", ".new.")), join(dir, file));
  for (const file of ["leaf.csr", "leaf.ext", "ca.new.srl"]) rmSync(join(dir, file), { force: true });
}

/**
 * A certificate authority of this computer's own in `dir`, limited by X.509 name constraints to the addresses it
 * serves (the LAN address, 127.0.0.1, localhost) and valid for `CA_VALIDITY_DAYS`, and the server certificate it
 * signs for them. Both are made again when either nears its end or the LAN address changes. The phone trusts the
 * CA once per CA; the relay serves the leaf. `replaced` says why a new CA was made ("missing" the first time).
 */
export function ensureLocalCertificates(dir, address) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const names = servedNames(address);
  const replaced = replacementReason(dir, names);
  if (replaced !== null) makeCertificates(dir, names);
  const ca = new X509Certificate(readFileSync(join(dir, "ca.crt")));
  return {
    caCertPath: join(dir, "ca.crt"),
    certPath: join(dir, "leaf.crt"),
    keyPath: join(dir, "leaf.key"),
    caFingerprint: ca.fingerprint256,
    caName: ca.subject.replace(/^CN=/, ""),
    caValidTo: new Date(ca.validTo),
    isCaNew: replaced !== null,
    replaced,
  };
}
