import { createServer } from "node:http";
import { listenOnLoopback } from "@ringback/test-kit";
import { forwardRequest } from "./forward-request.js";

export interface CorsProxy extends AsyncDisposable {
  /** The proxy's address with the target's path (e.g. `http://127.0.0.1:<port>/v1`). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Forwards every request to `target` and lets any page read the answer (CORS), as a hosted model's interface does:
 * the page's model requests go cross-origin, straight from the browser. Streams pass through as they arrive.
 */
export async function startCorsProxy(target: string): Promise<CorsProxy> {
  const base = new URL(target);
  const server = createServer((request, response) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "authorization, content-type, accept",
      "access-control-allow-methods": "GET, POST, OPTIONS",
    };
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    forwardRequest(request, response, base, cors);
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    url: `${origin}${base.pathname}`,
    close,
    [Symbol.asyncDispose]: close,
  };
}
