import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../src/index.js";

describe("freePort", () => {
  it("hands out a port a server can listen on, never the same one twice", async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    expect(new Set(ports).size).toBe(3);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], "127.0.0.1", resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
