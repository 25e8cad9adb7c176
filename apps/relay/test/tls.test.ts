import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { makeTemporaryDirectory, runToEnd, type TemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { ChildRelay } from "./support/child-relay.js";
import { makeThrowawayCertificates, type ThrowawayCertificates } from "./support/throwaway-certificates.js";

const BIN = fileURLToPath(new URL("../dist/main.js", import.meta.url));
let dir: TemporaryDirectory;
let certificates: ThrowawayCertificates;

beforeAll(async () => {
  dir = await makeTemporaryDirectory();
  certificates = makeThrowawayCertificates(dir.path, ["localhost", "127.0.0.1"]);
});

afterAll(async () => {
  await dir?.remove();
});

/** One HTTPS request trusting only the throwaway CA. */
function secureRequest(url: string, options: { method?: string; token?: string; body?: unknown } = {}) {
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const request = httpsRequest(
      url,
      {
        method: options.method ?? "GET",
        ca: certificates.caCert,
        headers: {
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, body: text ? JSON.parse(text) : null }),
        );
      },
    );
    request.on("error", reject);
    request.end(options.body === undefined ? undefined : JSON.stringify(options.body));
  });
}

/** The bin run to its end with `args`: how a user meets a bad option. */
function runRelay(args: string[]) {
  return runToEnd({ args: [BIN, "--port", "0", "--data", dir.path, ...args], timeoutMs: 10_000 });
}

describe("a relay terminating TLS itself (--tls-cert, --tls-key) with a public address", () => {
  it("serves the API over HTTPS, the daemon link over wss, and puts the public address into pairing codes", async () => {
    await using data = await makeTemporaryDirectory();
    await using relay = await ChildRelay.start({
      dataDir: data.path,
      args: [
        "--open-signup",
        "--tls-cert",
        certificates.certPath,
        "--tls-key",
        certificates.keyPath,
        "--public-url",
        "https://ring.example.com",
      ],
    });
    expect(relay.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(relay.stdout).toContain("ringback relay public address https://ring.example.com");
    expect((await secureRequest(`${relay.url}/v1/health`)).body).toMatchObject({ ok: true });

    const created = await secureRequest(`${relay.url}/v1/accounts`, {
      method: "POST",
      body: { deviceName: "desk", deviceKind: "computer" },
    });
    expect(created.status).toBe(201);
    const token = (created.body as { deviceToken: string }).deviceToken;
    const code = await secureRequest(`${relay.url}/v1/pairing-codes`, { method: "POST", token, body: {} });
    expect(code.body).toMatchObject({ publicUrl: "https://ring.example.com" });

    const link = new WebSocket(`${relay.url.replace(/^https/, "wss")}/v1/daemon/link`, {
      headers: { authorization: `Bearer ${token}` },
      ca: certificates.caCert,
    });
    await new Promise<void>((resolve, reject) => {
      link.once("open", () => resolve());
      link.once("error", reject);
    });
    link.close();

    // A client that does not trust the CA is refused by TLS itself.
    await expect(
      new Promise((resolve, reject) =>
        httpsRequest(`${relay.url}/v1/health`, resolve).on("error", reject).end(),
      ),
    ).rejects.toMatchObject({ code: "UNABLE_TO_VERIFY_LEAF_SIGNATURE" });
  });
});

describe("the relay's start refuses bad TLS and address options, naming what to do", () => {
  it("a certificate file that does not exist", async () => {
    const result = await runRelay([
      "--tls-cert",
      `${dir.path}/missing.crt`,
      "--tls-key",
      certificates.keyPath,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--tls-cert ${dir.path}/missing.crt does not exist.`);
  });

  it("only one of the two files", async () => {
    const result = await runRelay(["--tls-cert", certificates.certPath]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--tls-cert and --tls-key go together");
  });

  it("a key that is not the certificate's", async () => {
    const result = await runRelay([
      "--tls-cert",
      certificates.certPath,
      "--tls-key",
      certificates.otherKeyPath,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--tls-key ${certificates.otherKeyPath} is not the key of the certificate`,
    );
  });

  it("a file that is not PEM", async () => {
    const notPem = `${dir.path}/leaf.ext`;
    const result = await runRelay(["--tls-cert", notPem, "--tls-key", certificates.keyPath]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("is not a PEM file.");
  });

  it("a public address without https", async () => {
    const result = await runRelay(["--public-url", "http://ring.example.com"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("--public-url must be https://");
  });

  it("a port in use", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { code, stderr } = await runToEnd({ args: [BIN, "--port", String(port), "--data", dir.path] });
      expect(code).toBe(1);
      expect(stderr).toContain(
        `ringback-relay: port ${port} on 127.0.0.1 is in use (another relay?): stop it, or choose another with --port`,
      );
    } finally {
      blocker.close();
    }
  });
});
