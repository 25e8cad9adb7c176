import { writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { DaemonEventPost } from "@ringback/protocol";

interface RelayPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: DaemonEventPost;
}

/** The relay identity a test's daemon.json holds; the scripted relay takes any token. */
const TEST_RELAY_IDENTITY = {
  deviceToken: "device-token-for-tests-0123456789",
  accountId: "a",
  deviceId: "d",
};

/** Writes `{home}/daemon.json` (600) linked to the scripted relay, with `extra` fields such as `llm`. */
export function writeDaemonConfigForTestRelay(
  home: string,
  extra: Record<string, unknown> = {},
): Promise<void> {
  return writeFile(join(home, "daemon.json"), JSON.stringify({ relay: TEST_RELAY_IDENTITY, ...extra }), {
    mode: 0o600,
  });
}

/** What the relay does with one post: answer (after a delay), or cut the connection. */
type RelayAnswer = { status: number; body?: unknown; delayMs?: number } | { dropConnection: true };

/** Decides the answer to a post; `attempt` counts the posts of this event id so far, from 1. */
export type RelayScript = (post: RelayPost, attempt: number) => RelayAnswer;

/** Answers like the real relay: idempotent on event id. */
const acceptEverything: RelayScript = () => ({ status: 202, body: { ok: true } });

/**
 * A relay stand-in on 127.0.0.1 that the test controls. Records every post; `deliveredIds` holds each event
 * id once it was answered 2xx (what would ring).
 */
export async function startScriptedRelay(script: RelayScript = acceptEverything) {
  const posts: RelayPost[] = [];
  const attempts = new Map<string, number>();
  const delivered = new Map<string, number>();
  let currentScript = script;
  const server = createServer((request, response) => {
    let text = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      text += chunk;
    });
    request.on("end", () => {
      // The daemon also opens its relay link here; this stand-in only speaks the event posts.
      if (request.method !== "POST" || !request.url?.startsWith("/v1/daemon/")) {
        respond(response, 404, { error: { code: "not_found", message: "Not found." } });
        return;
      }
      const post = {
        path: request.url ?? "",
        headers: request.headers,
        body: DaemonEventPost.parse(JSON.parse(text)),
      };
      posts.push(post);
      const attempt = (attempts.get(post.body.eventId) ?? 0) + 1;
      attempts.set(post.body.eventId, attempt);
      const answer = currentScript(post, attempt);
      if ("dropConnection" in answer) {
        request.socket.destroy();
        return;
      }
      const send = () => {
        if (answer.status >= 200 && answer.status < 300) {
          delivered.set(post.body.eventId, (delivered.get(post.body.eventId) ?? 0) + 1);
        }
        respond(response, answer.status, answer.body ?? {});
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    /** Event id -> how many posts of it were answered 2xx. */
    delivered,
    setScript(next: RelayScript) {
      currentScript = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

export type ScriptedRelay = Awaited<ReturnType<typeof startScriptedRelay>>;

function respond(response: ServerResponse, status: number, body: unknown): void {
  if (response.destroyed) return;
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}
