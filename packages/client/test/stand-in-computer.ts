import { createServer, type IncomingMessage } from "node:http";
import { aad, type E2eKey, isE2eError, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  ERROR_STATUS,
  type ErrorCode,
  errorBody,
  SettingsRelayRequest,
  type SettingsRelayResult,
  SettingsRequestPlaintext,
  type SettingsResultPlaintext,
  StampedSettingsRequest,
} from "@ringback/protocol";
import { listenOnLoopback } from "@ringback/test-kit";

/** A daemon's local interface as a function: the request the phone sealed, the answer the daemon seals back. */
export type StandInDaemon = (
  request: SettingsRequestPlaintext,
) => SettingsResultPlaintext | Promise<SettingsResultPlaintext>;

/**
 * The computer's side of `POST /v1/devices/<computerId>/settings`: opens the request with the key (addressed to
 * `computerId`, stamped), answers it sealed. The stand-in takes the request without its stamp, as a route would.
 */
export async function answerRelayedSettings(
  key: E2eKey,
  computerId: string,
  relayBody: unknown,
  daemon: StandInDaemon,
): Promise<SettingsRelayResult> {
  const { requestId, sealed } = SettingsRelayRequest.parse(relayBody);
  const stamped = StampedSettingsRequest.parse(
    await openJson(key, aad.settingsRequestTo(computerId, requestId), sealed),
  );
  const request = SettingsRequestPlaintext.parse({
    method: stamped.method,
    path: stamped.path,
    body: stamped.body,
  });
  const result = await daemon(request);
  return { requestId, sealed: await sealJson(key, aad.settingsResult(requestId), result) };
}

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export interface StandInComputer extends AsyncDisposable {
  readonly origin: string;
  /** Every request the daemon opened, in order. */
  readonly requests: SettingsRequestPlaintext[];
  /** Makes the relay answer with its own error (e.g. `computer_offline`) instead of asking the daemon. */
  relayRefuses(code: ErrorCode | null): void;
  close(): Promise<void>;
}

/**
 * The relay's settings route and the computer behind it, on 127.0.0.1 and a random port: the phone's sealed request
 * is opened with the shared key, answered by `daemon`, and sealed back, as the relay and the real daemon would.
 */
export async function startStandInComputer(key: E2eKey, daemon: StandInDaemon): Promise<StandInComputer> {
  const requests: SettingsRequestPlaintext[] = [];
  let refusal: ErrorCode | null = null;
  const server = createServer((request, response) => {
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    const computerId = /^\/v1\/devices\/([\w-]+)\/settings$/.exec(request.url ?? "")?.[1];
    if (!computerId) {
      json(404, errorBody("not_found"));
      return;
    }
    readBody(request)
      .then(async (text) => {
        if (refusal) return json(ERROR_STATUS[refusal], errorBody(refusal));
        json(
          200,
          await answerRelayedSettings(key, computerId, JSON.parse(text), (opened) => {
            requests.push(opened);
            return daemon(opened);
          }),
        );
      })
      .catch((error: unknown) =>
        // As the real computer answers a request sealed with another key than its own.
        isE2eError(error)
          ? json(400, errorBody("undecryptable_request"))
          : json(500, errorBody("internal_error", String(error))),
      );
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    requests,
    relayRefuses(code) {
      refusal = code;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
