import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface ThrowawayCertificates {
  /** The CA that signed the leaf: what a client trusts. */
  readonly caCert: string;
  readonly caCertPath: string;
  readonly certPath: string;
  readonly keyPath: string;
  /** A key that is not the leaf's. */
  readonly otherKeyPath: string;
}

/** A CA and a leaf for `names` (DNS names and IP addresses), made with openssl in `dir`, valid one day. */
export function makeThrowawayCertificates(dir: string, names: readonly string[]): ThrowawayCertificates {
  const path = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "pipe" });
  const makeCa =
    "req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -keyout ca.key -out ca.crt";
  openssl(...makeCa.split(" "), "-subj", "/CN=Ringback test CA");
  openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "leaf.key");
  openssl("genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", "other.key");
  openssl("req", "-new", "-key", "leaf.key", "-subj", `/CN=${names[0]}`, "-out", "leaf.csr");
  const altNames = names.map((name) => (/^[\d.]+$|:/.test(name) ? `IP:${name}` : `DNS:${name}`)).join(",");
  writeFileSync(path("leaf.ext"), `subjectAltName=${altNames}\nextendedKeyUsage=serverAuth\n`);
  const signLeaf =
    "x509 -req -in leaf.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 1 -extfile leaf.ext";
  openssl(...signLeaf.split(" "), "-out", "leaf.crt");
  return {
    caCert: readFileSync(path("ca.crt"), "utf8"),
    caCertPath: path("ca.crt"),
    certPath: path("leaf.crt"),
    keyPath: path("leaf.key"),
    otherKeyPath: path("other.key"),
  };
}
