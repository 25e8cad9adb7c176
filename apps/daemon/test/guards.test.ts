import { sendRaw } from "@ringback/hostile-input";
import { ERROR_STATUS, REPORT_BODY_MAX_BYTES } from "@ringback/protocol";
import { makeTemporaryDirectory } from "@ringback/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLocalKey, startDaemonProcess } from "./helpers/daemon-process.js";
import { type InProcessDaemon, startInProcessDaemon, TEST_PORT } from "./helpers/in-process-daemon.js";

let daemon: InProcessDaemon;

beforeAll(async () => {
  daemon = await startInProcessDaemon();
});

afterAll(async () => {
  await daemon.close();
});

const report = { source: "claude-code", sessionId: "s1", turnId: "t1", cwd: "/tmp/project", text: "Done." };

async function expectError(response: Response, code: keyof typeof ERROR_STATUS): Promise<void> {
  expect(response.status).toBe(ERROR_STATUS[code]);
  expect(await response.json()).toEqual({ error: { code, message: expect.any(String) } });
}

describe("the local interface's guards", () => {
  describe("Host", () => {
    it.each([
      `127.0.0.1:${TEST_PORT}`,
      `localhost:${TEST_PORT}`,
      `[::1]:${TEST_PORT}`,
      `LOCALHOST:${TEST_PORT}`,
    ])("accepts %s", async (host) => {
      expect((await daemon.request("/brief/language", { headers: { host } })).status).toBe(200);
    });

    it.each([
      "evil.example",
      `evil.example:${TEST_PORT}`,
      "127.0.0.1",
      "localhost",
      "127.0.0.1:1",
      `192.168.1.5:${TEST_PORT}`,
      `127.0.0.1.evil.example:${TEST_PORT}`,
    ])("refuses %s with 403 invalid_host (DNS rebinding)", async (host) => {
      await expectError(await daemon.request("/brief/language", { headers: { host } }), "invalid_host");
    });

    it("refuses a request without Host", async () => {
      await expectError(
        await daemon.request("/brief/language", { headers: { host: undefined } }),
        "invalid_host",
      );
    });

    it("checks Host before the key", async () => {
      const headers = { host: "evil.example", authorization: undefined };
      await expectError(await daemon.request("/report", { body: report, headers }), "invalid_host");
    });
  });

  describe("Origin", () => {
    it.each(["https://evil.example", "null", `http://127.0.0.1:${TEST_PORT}`])(
      "refuses any Origin header (%s) with 403 origin_not_allowed, even with the right key",
      async (origin) => {
        await expectError(
          await daemon.request("/report", { body: report, headers: { origin } }),
          "origin_not_allowed",
        );
        await expectError(await daemon.request("/e2e/key", { headers: { origin } }), "origin_not_allowed");
      },
    );

    it("refuses a CORS preflight", async () => {
      const headers = { origin: "https://evil.example", "access-control-request-method": "POST" };
      await expectError(
        await daemon.request("/report", { method: "OPTIONS", headers }),
        "origin_not_allowed",
      );
    });
  });

  describe("the local key", () => {
    it("refuses a request without Authorization with 401 unauthorized and WWW-Authenticate: Bearer", async () => {
      const response = await daemon.request("/e2e/key", { headers: { authorization: undefined } });
      expect(response.headers.get("www-authenticate")).toBe("Bearer");
      await expectError(response, "unauthorized");
    });

    it.each([
      ["a wrong key", () => "Bearer wrong-key"],
      [
        "the key with one character changed",
        () => `Bearer ${daemon.localKey.slice(0, -1)}${daemon.localKey.endsWith("x") ? "y" : "x"}`,
      ],
      ["the key with a suffix", () => `Bearer ${daemon.localKey}x`],
      ["another scheme", () => `Basic ${daemon.localKey}`],
      ["no token", () => "Bearer"],
    ])("refuses %s", async (_label, authorization) => {
      await expectError(
        await daemon.request("/report", { body: report, headers: { authorization: authorization() } }),
        "unauthorized",
      );
    });

    it("is required by POST /report too", async () => {
      await expectError(
        await daemon.request("/report", { body: report, headers: { authorization: undefined } }),
        "unauthorized",
      );
      expect(daemon.outbox.entries()).toHaveLength(0);
    });

    it("accepts the scheme in any case", async () => {
      const headers = { authorization: `bearer ${daemon.localKey}` };
      expect((await daemon.request("/brief/language", { headers })).status).toBe(200);
    });
  });

  describe("bodies", () => {
    it.each([
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/jsonx",
    ])("refuses Content-Type %s with 415 unsupported_media_type", async (type) => {
      const headers = { "content-type": type };
      await expectError(await daemon.request("/report", { body: report, headers }), "unsupported_media_type");
    });

    it("refuses a body without Content-Type", async () => {
      const headers = { "content-type": undefined };
      await expectError(await daemon.request("/report", { body: report, headers }), "unsupported_media_type");
    });

    it("accepts application/json with a charset", async () => {
      const headers = { "content-type": "Application/JSON; charset=utf-8" };
      expect((await daemon.request("/report", { body: report, headers })).status).toBe(202);
    });

    it("refuses a body over the limit with 413 payload_too_large", async () => {
      const text = "x".repeat(REPORT_BODY_MAX_BYTES);
      await expectError(await daemon.request("/report", { body: { ...report, text } }), "payload_too_large");
    });

    it("counts the body itself, not only Content-Length", async () => {
      const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > REPORT_BODY_MAX_BYTES * 2) controller.close();
          else {
            sent += chunk.byteLength;
            controller.enqueue(chunk);
          }
        },
      });
      await expectError(await daemon.request("/report", { body: stream }), "payload_too_large");
      expect(sent).toBeLessThan(REPORT_BODY_MAX_BYTES * 2);
    });

    it("refuses a body that is not JSON with 400 invalid_request", async () => {
      await expectError(await daemon.request("/report", { body: "{not json" }), "invalid_request");
    });

    it("gives the settings routes a smaller limit", async () => {
      const body = { baseUrl: "https://model.example/v1", model: "m", apiKey: "k".repeat(100_000) };
      await expectError(await daemon.request("/llm/settings", { method: "PUT", body }), "payload_too_large");
    });
  });

  describe("paths", () => {
    it("answers an unknown path with 404 not_found", async () => {
      await expectError(await daemon.request("/nothing-here"), "not_found");
    });

    it("answers an unknown path without the key with 401, revealing nothing", async () => {
      await expectError(
        await daemon.request("/nothing-here", { headers: { authorization: undefined } }),
        "unauthorized",
      );
    });

    it("answers a known path with another method with 405 and Allow", async () => {
      const response = await daemon.request("/report");
      expect(response.headers.get("allow")).toBe("POST");
      await expectError(response, "method_not_allowed");
    });
  });
});

describe("the Host guard on a running daemon's socket", () => {
  it("takes Host: LOCALHOST:<port> (any case) as localhost, as the README says, and still refuses another name", async () => {
    await using home = await makeTemporaryDirectory();
    await using running = await startDaemonProcess(home.path);
    const localKey = await readLocalKey(home.path);
    const ask = async (host: string) => {
      const request = `GET /brief/language HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${localKey}\r\nconnection: close\r\n\r\n`;
      return sendRaw(running.port, Buffer.from(request), 5_000);
    };
    for (const hostname of ["LOCALHOST", "LocalHost", "localhost", "127.0.0.1"]) {
      expect((await ask(`${hostname}:${running.port}`)).status, hostname).toBe(200);
    }
    const rebound = await ask(`EVIL.EXAMPLE:${running.port}`);
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("invalid_host");
  });
});
