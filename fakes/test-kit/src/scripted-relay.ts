import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { DaemonEventPost, DaemonTrackerReportPost } from "@ringback/protocol";
import { Changes } from "./eventually.js";
import { listenOnLoopback } from "./loopback-server.js";

/** The daemon's two posts, under any path prefix the relay's address has. */
const DAEMON_POST_PATH = /\/v1\/daemon\/(events|tracker-reports)$/;

/** One post as it reached the scripted relay. */
export interface RelayPost {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** Parsed with its route's schema (the protocol's): a tracker report keeps its task id. */
  readonly body: DaemonEventPost & { readonly taskId?: string };
  /** The status it was answered with; null while it is held, delayed, or when its connection was cut. */
  answeredWith: number | null;
}

/** What the relay does with one post: answer (after a delay), cut the connection, or never answer. */
export type RelayAnswer =
  | {
      readonly status: number;
      readonly body?: unknown;
      readonly headers?: Readonly<Record<string, string>>;
      readonly delayMs?: number;
    }
  | { readonly dropConnection: true }
  | { readonly hold: true };

/** Decides the answer to a post; `attempt` counts the posts of its event id so far, from 1. */
export type RelayScript = (post: RelayPost, attempt: number) => RelayAnswer;

export interface ScriptedRelay extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`: the daemon's `serverUrl`. */
  readonly url: string;
  /** Every post, in order of arrival. */
  readonly posts: RelayPost[];
  /** Event id -> how many posts of it were answered 2xx (what would ring). */
  readonly delivered: Map<string, number>;
  /** Notified after every post: `eventually(check, { on: relay.changes })` checks at once. */
  readonly changes: Changes;
  setScript(next: RelayScript): void;
  /** Closes it, ending held requests too. */
  close(): Promise<void>;
}

/** Answers as the real relay answers a new event. */
const acceptEverything: RelayScript = () => ({ status: 202, body: { ok: true } });

/**
 * The relay's daemon side, `POST /v1/daemon/events` and `/v1/daemon/tracker-reports`, on 127.0.0.1 and a free
 * port, answering as the test scripts it; anything else gets 404 (the daemon's link upgrade included).
 */
export async function startScriptedRelay(script: RelayScript = acceptEverything): Promise<ScriptedRelay> {
  const posts: RelayPost[] = [];
  const attempts = new Map<string, number>();
  const delivered = new Map<string, number>();
  const changes = new Changes();
  let currentScript = script;
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      const path = request.url ?? "";
      const route = DAEMON_POST_PATH.exec(path)?.[1];
      if (request.method !== "POST" || route === undefined) {
        respond(response, 404, { error: { code: "not_found", message: "Not found." } });
        return;
      }
      const schema = route === "tracker-reports" ? DaemonTrackerReportPost : DaemonEventPost;
      const post: RelayPost = {
        method: request.method,
        path,
        headers: request.headers,
        body: schema.parse(JSON.parse(text)),
        answeredWith: null,
      };
      posts.push(post);
      const attempt = (attempts.get(post.body.eventId) ?? 0) + 1;
      attempts.set(post.body.eventId, attempt);
      const answer = currentScript(post, attempt);
      if ("dropConnection" in answer) {
        request.socket.destroy();
      } else if ("status" in answer) {
        const send = () => {
          if (answer.status >= 200 && answer.status < 300) {
            delivered.set(post.body.eventId, (delivered.get(post.body.eventId) ?? 0) + 1);
          }
          post.answeredWith = answer.status;
          respond(response, answer.status, answer.body ?? {}, answer.headers);
          changes.notify();
        };
        if (answer.delayMs) setTimeout(send, answer.delayMs);
        else send();
      }
      changes.notify();
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.origin,
    posts,
    delivered,
    changes,
    setScript(next) {
      currentScript = next;
    },
    close: listening.close,
    [Symbol.asyncDispose]: listening.close,
  };
}

function respond(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json", ...headers });
  response.end(JSON.stringify(body));
}
