import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface StaticFile {
  readonly body: string | Uint8Array;
  readonly contentType: string;
}

export interface StaticServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, a secure context for browsers, so WebCrypto is available. */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves a fixed set of files (path -> content) on 127.0.0.1 and a random port; anything else is 404, so
 * nothing outside the map can be reached.
 */
export async function startStaticServer(files: ReadonlyMap<string, StaticFile>): Promise<StaticServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const file = request.method === "GET" ? files.get(path) : undefined;
    if (file === undefined) {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    response.writeHead(200, { "content-type": file.contentType, "cache-control": "no-store" }).end(file.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
  return { origin: `http://127.0.0.1:${port}`, close, [Symbol.asyncDispose]: close };
}
