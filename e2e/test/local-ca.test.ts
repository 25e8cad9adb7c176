import { execFileSync, spawnSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { fromRoot } from "../harness/paths.ts";

// The certificate authority `pnpm start --lan` makes (scripts/lan/local-ca.mjs), checked with openssl as a phone's
// TLS stack would: limited by name constraints to the addresses it serves, short-lived, made again when it must be.
interface LocalCertificates {
  caCertPath: string;
  certPath: string;
  keyPath: string;
  caFingerprint: string;
  isCaNew: boolean;
  replaced: "missing" | "expired" | "address" | null;
}
interface LocalCaModule {
  CA_VALIDITY_DAYS: number;
  ensureLocalCertificates(dir: string, address: string): LocalCertificates;
}
const { CA_VALIDITY_DAYS, ensureLocalCertificates }: LocalCaModule = await import(
  fromRoot("scripts/lan/local-ca.mjs")
);
const DAY_MS = 24 * 3600 * 1000;

function openssl(cwd: string, ...args: string[]): string {
  return execFileSync("openssl", args, { cwd, encoding: "utf8", stdio: "pipe" });
}

/** Signs a server certificate for `altName` (`DNS:example.com`, `IP:10.1.2.3`) with the CA in `dir`. */
function signLeaf(dir: string, name: string, altName: string, days = 1): string {
  openssl(dir, "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", `${name}.key`);
  openssl(dir, "req", "-new", "-key", `${name}.key`, "-subj", `/CN=${name}`, "-out", `${name}.csr`);
  writeFileSync(join(dir, `${name}.ext`), `subjectAltName=${altName}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    dir,
    "x509",
    "-req",
    "-in",
    `${name}.csr`,
    "-CA",
    "ca.crt",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    String(days),
    "-extfile",
    `${name}.ext`,
    "-out",
    `${name}.crt`,
  );
  return `${name}.crt`;
}

function verify(dir: string, certificate: string): { status: number | null; output: string } {
  const result = spawnSync("openssl", ["verify", "-CAfile", "ca.crt", certificate], {
    cwd: dir,
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe("the LAN certificate authority", () => {
  it("is limited by critical name constraints to the LAN address, 127.0.0.1 and localhost, for 30 days", async () => {
    await using directory = await makeTemporaryDirectory();
    const made = ensureLocalCertificates(directory.path, "192.168.1.23");
    expect(made).toMatchObject({ isCaNew: true, replaced: "missing" });
    const text = openssl(directory.path, "x509", "-in", "ca.crt", "-noout", "-text");
    expect(text).toMatch(
      /X509v3 Name Constraints: critical\s+Permitted:\s+IP:192\.168\.1\.23\/255\.255\.255\.255\s+IP:127\.0\.0\.1\/255\.255\.255\.255\s+DNS:localhost\n/,
    );
    expect(text).toMatch(/X509v3 Basic Constraints: critical\s+CA:TRUE, pathlen:0/);
    expect(CA_VALIDITY_DAYS).toBe(30);
    for (const path of [made.caCertPath, made.certPath]) {
      const certificate = new X509Certificate(readFileSync(path));
      expect(Date.parse(certificate.validTo) - Date.parse(certificate.validFrom)).toBe(30 * DAY_MS);
    }
    expect(made.caFingerprint).toBe(new X509Certificate(readFileSync(made.caCertPath)).fingerprint256);
    expect(made.caFingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it("verifies the server certificate it made, and refuses one it signed for another name or address", async () => {
    await using directory = await makeTemporaryDirectory();
    ensureLocalCertificates(directory.path, "192.168.1.23");
    expect(verify(directory.path, "leaf.crt")).toEqual({ status: 0, output: "leaf.crt: OK\n" });
    // The CA's own key signing for names it was not made for: what name constraints stop.
    for (const [name, altName] of [
      ["example", "DNS:example.com"],
      ["other-address", "IP:192.168.1.99"],
    ] as const) {
      const refused = verify(directory.path, signLeaf(directory.path, name, altName));
      expect(refused.status).not.toBe(0);
      expect(refused.output).toContain("permitted subtree violation");
    }
  });

  it("is kept while it serves the same address, and made again for a new address or near its end", async () => {
    await using directory = await makeTemporaryDirectory();
    const first = ensureLocalCertificates(directory.path, "192.168.1.23");
    const again = ensureLocalCertificates(directory.path, "192.168.1.23");
    expect(again).toMatchObject({ isCaNew: false, replaced: null, caFingerprint: first.caFingerprint });

    const moved = ensureLocalCertificates(directory.path, "10.0.0.7");
    expect(moved).toMatchObject({ isCaNew: true, replaced: "address" });
    expect(moved.caFingerprint).not.toBe(first.caFingerprint);
    expect(openssl(directory.path, "x509", "-in", "ca.crt", "-noout", "-ext", "nameConstraints")).toContain(
      "IP:10.0.0.7/255.255.255.255",
    );
    expect(verify(directory.path, "leaf.crt").status).toBe(0);

    // A server certificate with less than a day left: both are made again before a run could outlive them.
    signLeaf(directory.path, "leaf", "IP:10.0.0.7,IP:127.0.0.1,DNS:localhost", 1);
    const renewed = ensureLocalCertificates(directory.path, "10.0.0.7");
    expect(renewed).toMatchObject({ isCaNew: true, replaced: "expired" });
    expect(renewed.caFingerprint).not.toBe(moved.caFingerprint);
  });
});
