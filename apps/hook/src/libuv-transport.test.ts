import { type AddressInfo, createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { libuvTransport } from "./libuv-transport.js";

describe("libuvTransport", () => {
  it("is given on the majors the tests run it on, and on no other", () => {
    for (const version of ["22.3.0", "24.21.0", "26.10.0"])
      expect(libuvTransport({}, version)?.name).toBe("libuv handles");
    for (const version of ["20.20.2", "23.11.1", "25.9.0", "27.0.0", "not a version"])
      expect(libuvTransport({}, version)).toBeUndefined();
  });

  it("is not given on Windows, with RINGBACK_HOOK_TRANSPORT=net, or when deprecations are made loud", () => {
    expect(libuvTransport({}, "24.21.0", "win32")).toBeUndefined();
    expect(libuvTransport({}, "24.21.0", "darwin")).toBeDefined();
    expect(libuvTransport({ RINGBACK_HOOK_TRANSPORT: "net" })).toBeUndefined();
    expect(libuvTransport({ NODE_OPTIONS: "--max-old-space-size=64 --pending-deprecation" })).toBeUndefined();
    expect(libuvTransport({ NODE_OPTIONS: "--throw-deprecation" })).toBeUndefined();
    expect(libuvTransport({ NODE_OPTIONS: "--max-old-space-size=64" })).toBeDefined();
  });

  it("sends nothing on a connection closed while it is being made, and takes a second close", async () => {
    let received = "";
    const server = createServer((socket) => {
      socket.on("data", (chunk: Buffer) => {
        received += chunk.toString();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const transport = libuvTransport({});
    const ends: Array<string | undefined> = [];
    const connection = transport?.connect(port);
    connection?.read(
      () => {},
      (error) => ends.push(error),
    );
    connection?.write("never sent");
    connection?.close();
    connection?.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    server.close();
    // libuv cancels the connect of a closed handle: the channel says so once, and the queued text never leaves.
    expect(ends).toEqual([`connect ECANCELED 127.0.0.1:${port}`]);
    expect(received).toBe("");
  });
});
