import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { checkPush } from "./push-check.js";

const PUBLIC_KEY = "B".padEnd(87, "A");
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A relay on 127.0.0.1 whose `GET /v1/push/public-key` answers `body`. */
async function relayNaming(body: object): Promise<string> {
  const server = createServer((request, response) => {
    if (request.url !== "/v1/push/public-key") {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("doctor's push contact check", () => {
  it("fails on a localhost contact, saying Apple refuses it and how to set another", async () => {
    const check = await checkPush(
      await relayNaming({ publicKey: PUBLIC_KEY, subject: "mailto:me@localhost" }),
    );
    expect(check).toMatchObject({
      id: "push",
      status: "fail",
      fix: expect.stringContaining("--push-subject"),
    });
    expect(check.summary).toContain("403 BadJwtToken");
  });

  it("is ok with a real contact, and says so of one that reaches nobody", async () => {
    const real = await checkPush(
      await relayNaming({ publicKey: PUBLIC_KEY, subject: "mailto:ops@ring.sample.dev" }),
    );
    expect(real).toMatchObject({
      status: "ok",
      summary: "the relay's pushes name mailto:ops@ring.sample.dev",
    });
    const example = await checkPush(
      await relayNaming({ publicKey: PUBLIC_KEY, subject: "mailto:ringback-relay@example.org" }),
    );
    expect(example).toMatchObject({ status: "ok", fix: null });
    expect(example.summary).toContain("reaches nobody");
  });

  it("warns when an older relay does not say its contact", async () => {
    expect(await checkPush(await relayNaming({ publicKey: PUBLIC_KEY }))).toMatchObject({ status: "warn" });
  });
});
