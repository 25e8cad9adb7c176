import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import {
  CallStatusRequest,
  DaemonEventPost,
  DaemonToRelayMessage,
  ERROR_STATUS,
  errorBody,
  FleetStatePut,
  type RelayToDaemonMessage,
  ReplyRequest,
  SettingsRelayRequest,
} from "@ringback/protocol";
import { Changes, eventually, listenOnLoopback } from "@ringback/test-kit";
import { WebSocket, WebSocketServer } from "ws";

type LinkAnswer = DaemonToRelayMessage;

/**
 * A relay run by the party the end-to-end design keeps out: it does the relay's job (the daemon's link, its posts,
 * a device's settings requests and replies) and keeps a copy of every sealed message it passes on, which it can send
 * the daemon again at any time. It never has the key: all it can do with a copy is send it again, byte for byte.
 */
export interface HostileRelay extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the daemon's `serverUrl` and the device's relay. */
  readonly url: string;
  /** Every message passed to the daemon over its link, in order. */
  readonly passedOn: RelayToDaemonMessage[];
  /** Event ids of the daemon's posts (`/v1/daemon/events`). */
  readonly postedEvents: string[];
  /** The daemon's event posts as they came (their sealed payloads included). */
  readonly posts: DaemonEventPost[];
  /** Answers the daemon's event posts with this status from now on (201 at first; 503: the relay is down). */
  answerPostsWith(status: number): void;
  /** The call status writes (`POST /v1/calls/<eventId>/status`) as they came: the daemon ends a call that stopped waiting. */
  readonly statusWrites: { eventId: string; status: string; deviceId: string | undefined }[];
  /** The daemon's fleet states (`PUT /v1/daemon/fleet`) as they came, sealed, with when each came. */
  readonly fleetPuts: { sealed: string; receivedAt: number }[];
  /** Notified on every link, post and answer. */
  readonly changes: Changes;
  /** Resolves once `count` links have been opened (1: the first) and the latest is open. */
  linked(count?: number): Promise<void>;
  /** Cuts the daemon's link, as a network drop does (the daemon reconnects). */
  dropLink(): void;
  /** Sends a message over the daemon's link (a copy of an earlier one: a replay) and resolves with its answer. */
  send(message: RelayToDaemonMessage): Promise<LinkAnswer>;
  close(): Promise<void>;
}

/** The device id this relay gives a device's token, as a real relay looks it up: `dev_phone` for `phone-token`. */
export function deviceIdOfToken(token: string): string {
  return `dev_${token.replace(/-token$/, "").replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 128);
}

/** The stamp a relay puts on a settings request: the id of the device whose bearer token sent it. */
function senderStamp(request: IncomingMessage): { senderDeviceId?: string } {
  const token = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
  return token === undefined ? {} : { senderDeviceId: deviceIdOfToken(token) };
}

/** The answer a link message waits for: the settings result or refusal of its request, a reply's status. */
function answers(message: RelayToDaemonMessage, answer: LinkAnswer): boolean {
  if (message.type === "settings-request") {
    return (
      (answer.type === "settings-result" || answer.type === "settings-error") &&
      answer.requestId === message.requestId
    );
  }
  return answer.type === "reply-status" && answer.replyId === message.replyId;
}

export async function startHostileRelay(): Promise<HostileRelay> {
  const passedOn: RelayToDaemonMessage[] = [];
  const postedEvents: string[] = [];
  const posts: DaemonEventPost[] = [];
  const statusWrites: HostileRelay["statusWrites"] = [];
  const fleetPuts: HostileRelay["fleetPuts"] = [];
  let postStatus = 201;
  const changes = new Changes();
  const waiting: { message: RelayToDaemonMessage; resolve(answer: LinkAnswer): void }[] = [];
  let link: WebSocket | null = null;
  let linksOpened = 0;
  /** The daemon's link while it is open (a killed daemon's may not have closed yet). */
  const openLink = () => (link?.readyState === WebSocket.OPEN ? link : null);

  const links = new WebSocketServer({ noServer: true });
  links.on("connection", (socket) => {
    link = socket;
    linksOpened += 1;
    socket.on("message", (data) => {
      const answer = DaemonToRelayMessage.parse(JSON.parse(data.toString()));
      const index = waiting.findIndex((entry) => answers(entry.message, answer));
      if (index >= 0) waiting.splice(index, 1)[0]?.resolve(answer);
      changes.notify();
    });
    socket.on("close", () => {
      if (link === socket) link = null;
      changes.notify();
    });
    changes.notify();
  });

  async function send(message: RelayToDaemonMessage): Promise<LinkAnswer> {
    const socket = await eventually(openLink, { what: "the daemon's link", on: changes, checks: 750 });
    const answered = new Promise<LinkAnswer>((resolve) => waiting.push({ message, resolve }));
    passedOn.push(message);
    socket.send(JSON.stringify(message));
    return answered;
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      respond(response, 500, errorBody("internal_error", String(error)));
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = request.url ?? "";
    const body = await readJson(request);
    if (request.method === "POST" && /\/v1\/daemon\/(events|tracker-reports)$/.test(path)) {
      const post = DaemonEventPost.parse(body);
      postedEvents.push(post.eventId);
      posts.push(post);
      changes.notify();
      if (postStatus >= 300) {
        respond(response, postStatus, errorBody("relay_unavailable"));
        return;
      }
      respond(response, postStatus, { eventId: post.eventId, seq: postedEvents.length });
      return;
    }
    if (request.method === "PUT" && path === "/v1/daemon/fleet") {
      fleetPuts.push({ sealed: FleetStatePut.parse(body).sealed, receivedAt: Date.now() });
      changes.notify();
      response.writeHead(204).end();
      return;
    }
    const settings = /^\/v1\/devices\/[^/]+\/settings$/.test(path);
    if (request.method === "POST" && settings) {
      const { requestId, sealed } = SettingsRelayRequest.parse(body);
      const answer = await send({ type: "settings-request", requestId, sealed, ...senderStamp(request) });
      if (answer.type === "settings-result") respond(response, 200, { requestId, sealed: answer.sealed });
      else if (answer.type === "settings-error") {
        respond(response, ERROR_STATUS[answer.error.code], { error: answer.error });
      }
      return;
    }
    const statusWrite = /^\/v1\/calls\/([^/]+)\/status$/.exec(path);
    if (request.method === "POST" && statusWrite?.[1]) {
      const { status } = CallStatusRequest.parse(body);
      const eventId = decodeURIComponent(statusWrite[1]);
      statusWrites.push({ eventId, status, deviceId: senderStamp(request).senderDeviceId });
      changes.notify();
      respond(response, 200, { eventId, status, won: true });
      return;
    }
    const reply = /^\/v1\/calls\/([^/]+)\/replies$/.exec(path);
    if (request.method === "POST" && reply?.[1]) {
      const { replyId, sealed } = ReplyRequest.parse(body);
      const eventId = decodeURIComponent(reply[1]);
      void send({ type: "reply", replyId, eventId, sealed });
      respond(response, 202, { replyId, eventId, status: "queued" });
      return;
    }
    respond(response, 404, errorBody("not_found"));
  }
  server.on("upgrade", (request, socket, head) => {
    if (!request.url?.endsWith("/v1/daemon/link")) {
      socket.destroy();
      return;
    }
    links.handleUpgrade(request, socket, head, (webSocket) => links.emit("connection", webSocket));
  });

  const listening = await listenOnLoopback(server);
  const close = async () => {
    for (const client of links.clients) client.terminate();
    links.close();
    await listening.close();
  };
  return {
    url: listening.origin,
    passedOn,
    postedEvents,
    posts,
    statusWrites,
    fleetPuts,
    answerPostsWith: (status) => {
      postStatus = status;
    },
    changes,
    linked: async (count = 1) => {
      await eventually(() => linksOpened >= count && openLink(), {
        what: `link number ${count} of the daemon`,
        on: changes,
        checks: 750,
      });
    },
    dropLink: () => openLink()?.terminate(),
    send,
    close,
    [Symbol.asyncDispose]: close,
  };
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text === "" ? undefined : JSON.parse(text);
}

function respond(response: ServerResponse, status: number, body: unknown): void {
  if (response.headersSent) return;
  response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}
