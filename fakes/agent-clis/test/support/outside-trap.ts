import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface OutsideTrap extends AsyncDisposable {
  /** Proxy variables that send every address but 127.0.0.1 and localhost here. */
  proxyEnv: Record<string, string>;
  /** The hosts a child tried to reach through the proxy, refused. */
  attempts: string[];
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1 that refuses everything and records what was asked: the agents honour the proxy
 * variables, so a call that would leave this machine ends here instead, and the test can name it.
 */
export async function startOutsideTrap(): Promise<OutsideTrap> {
  const attempts: string[] = [];
  const server = createServer((request, response) => {
    attempts.push(request.headers.host ?? request.url ?? "?");
    response.writeHead(403).end();
  });
  server.on("connect", (request, socket) => {
    attempts.push(request.url ?? "?");
    socket.end("HTTP/1.1 403 Forbidden\r\n\r\n");
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const proxy = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const noProxy = "127.0.0.1,localhost";
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    proxyEnv: {
      HTTP_PROXY: proxy,
      HTTPS_PROXY: proxy,
      ALL_PROXY: proxy,
      http_proxy: proxy,
      https_proxy: proxy,
      all_proxy: proxy,
      NO_PROXY: noProxy,
      no_proxy: noProxy,
    },
    attempts,
    close,
    [Symbol.asyncDispose]: close,
  };
}
