import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";

/**
 * Passes `request` on to the same path at `upstream` and its answer back as it arrives (streams included), with
 * `answerHeaders` added to the upstream's; a request the upstream drops is dropped here too.
 */
export function forwardRequest(
  request: IncomingMessage,
  response: ServerResponse,
  upstream: URL,
  answerHeaders: Readonly<Record<string, string>> = {},
): void {
  const forwarded = httpRequest(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: { ...request.headers, host: upstream.host },
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, ...answerHeaders });
      answer.pipe(response);
    },
  );
  forwarded.on("error", () => response.destroy());
  request.pipe(forwarded);
}
