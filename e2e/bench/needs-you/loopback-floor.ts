import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Changes, eventually, listenOnLoopback } from "@ringback/test-kit";
import { type ChildExit, startTimedChild } from "./timed-child.ts";

/**
 * The waiting child of the floor: one held `POST /wait` to the server, its answer printed, then its natural end (no
 * timer, no open handle), as the hook ends once it has printed the decision.
 */
const WAITING_CHILD = `
const request = require("node:http").request(
  { host: "127.0.0.1", port: Number(process.argv[1]), path: "/wait", method: "POST", headers: { "content-type": "application/json" } },
  (response) => {
    let body = "";
    response.setEncoding("utf8");
    response.on("data", (chunk) => { body += chunk; });
    response.on("end", () => process.stdout.write(body + "\\n"));
  },
);
request.end("{}");
`;

/** One round of the floor: when its tap started and when the waiting child exited, with what it printed. */
interface FloorRound {
  readonly exit: ChildExit;
  readonly tapAt: number;
}

export interface LoopbackFloor extends AsyncDisposable {
  /** Starts the waiting child, waits (untimed) until its request is held, then taps and times it to the exit. */
  round(answer: string): Promise<FloorRound>;
}

async function readBody(request: IncomingMessage): Promise<void> {
  for await (const _chunk of request);
}

/**
 * What the tap would cost with nothing of Ringback in the path: the same two POSTs with the same `fetch` (the call's
 * status, then the decision) to a bare node:http server on 127.0.0.1, which answers at the second one a request a
 * waiting `node -e` child holds, and the time to that child's exit. No relay, WebSocket, daemon or sealing.
 */
export async function startLoopbackFloor(): Promise<LoopbackFloor> {
  const changes = new Changes();
  let held: ServerResponse | null = null;
  let answer = "";
  const server = createServer((request, response) => {
    void readBody(request).then(() => {
      if (request.url === "/wait") {
        held = response;
        changes.notify();
        return;
      }
      if (request.url === "/reply" && held) {
        held.writeHead(200, { "content-type": "application/json" }).end(answer);
        held = null;
        response.writeHead(202, { "content-type": "application/json" }).end('{"status":"queued"}');
        return;
      }
      response.writeHead(200, { "content-type": "application/json" }).end('{"won":true}');
    });
  });
  const listening = await listenOnLoopback(server);
  const post = async (path: string) => {
    const response = await fetch(`${listening.origin}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    await response.json();
  };
  return {
    async round(printed) {
      answer = printed;
      const child = startTimedChild(["-e", WAITING_CHILD, String(listening.port)], {
        PATH: process.env.PATH,
      });
      await eventually(() => held !== null, { what: "the floor's waiting child to post", on: changes });
      const tapAt = performance.now();
      await post("/status");
      await post("/reply");
      return { exit: await child.exited, tapAt };
    },
    [Symbol.asyncDispose]: () => listening.close(),
  };
}
