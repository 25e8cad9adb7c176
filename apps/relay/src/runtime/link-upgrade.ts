import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import {
  type ErrorBody,
  errorBody,
  isRingbackError,
  LOG_VALUE_MAX_CHARS,
  logSafe,
  RELAY_SETTINGS_BODY_MAX_BYTES,
  RingbackError,
} from "@ringback/protocol";
import { WebSocketServer } from "ws";
import { authenticate } from "./authenticate.js";
import type { RelayRuntime } from "./relay-runtime.js";

/** Where a computer's daemon opens its link. */
const DAEMON_LINK_PATH = "/v1/daemon/link";
/** Room around the largest sealed settings result for the JSON message around it. */
const LINK_MESSAGE_OVERHEAD_BYTES = 4096;

const COMPUTER_ONLY_LINK = "Only a computer of the account opens the daemon link.";

/**
 * Authenticates WebSocket upgrades (Authorization: Bearer on the upgrade request, a computer's token) and hands
 * links to the registry.
 */
export function createLinkUpgrade(runtime: RelayRuntime): {
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): void;
} {
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: RELAY_SETTINGS_BODY_MAX_BYTES + LINK_MESSAGE_OVERHEAD_BYTES,
  });

  function refuse(socket: Duplex, status: number, body: ErrorBody, path = DAEMON_LINK_PATH): void {
    // Only the link's own path is logged bare; any other is what a client made up.
    runtime.log.line(
      path === DAEMON_LINK_PATH
        ? `GET ${DAEMON_LINK_PATH} ${status}`
        : `upgrade unmatched "${logSafe(path, LOG_VALUE_MAX_CHARS)}" ${status}`,
    );
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
    );
  }

  return {
    handleUpgrade(request, socket, head) {
      // A socket reset during the handshake must not crash the relay.
      socket.on("error", () => socket.destroy());
      const path = new URL(request.url ?? "/", "http://relay.invalid").pathname;
      if (path !== DAEMON_LINK_PATH) {
        refuse(socket, 404, errorBody("not_found"), path);
        return;
      }
      authenticate(runtime.store, runtime.clock, request.headers.authorization).then(
        (device) => {
          // The link carries what devices send a computer (settings requests, replies) and its answers back: a
          // phone's or browser's token has no daemon behind it to hold one.
          if (device.kind !== "computer") {
            const refused = new RingbackError("computer_only", COMPUTER_ONLY_LINK);
            refuse(socket, refused.status, refused.toBody());
            return;
          }
          server.handleUpgrade(request, socket, head, (webSocket) => {
            runtime.log.line(`GET ${DAEMON_LINK_PATH} 101 device=${device.id}`);
            runtime.links.attach(device, webSocket);
          });
        },
        (error: unknown) => {
          if (isRingbackError(error)) refuse(socket, error.status, error.toBody());
          else refuse(socket, 500, errorBody("internal_error"));
        },
      );
    },
    close() {
      server.close();
    },
  };
}
