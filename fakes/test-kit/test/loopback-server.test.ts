import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { listenOnLoopback } from "../src/index.js";

describe("listenOnLoopback", () => {
  it("serves on 127.0.0.1 at a free port and, closed, ends the streams still open", async () => {
    const server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(": open\n\n");
    });
    const listening = await listenOnLoopback(server);
    expect(listening.origin).toBe(`http://127.0.0.1:${listening.port}`);
    const stream = await fetch(`${listening.origin}/stream`);
    const reader = stream.body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe(": open\n\n");
    await listening.close();
    await expect(reader?.read()).rejects.toThrow();
    expect(server.listening).toBe(false);
  });
});
