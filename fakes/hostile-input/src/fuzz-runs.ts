import { connect, type Socket } from "node:net";
import fc from "fast-check";
import { type AnswerRules, answerViolation, StatusTally } from "./invariants.js";
import { sendInProcess, sendRaw, wireBytes } from "./raw-http.js";
import type { HostileRequest } from "./requests.js";

/** A fuzz run against an app's `fetch` in process. */
export interface InProcessRun {
  readonly requests: fc.Arbitrary<HostileRequest>;
  readonly fetch: (request: Request) => Response | Promise<Response>;
  /** The origin the paths are resolved against (what the app sees as its own address). */
  readonly origin: string;
  readonly rules: AnswerRules;
  readonly runs: number;
  readonly seed: number;
}

/**
 * Hands `runs` generated requests to an app in process and judges each answer by `rules`; the first answer that
 * breaks them fails the run with the request's method and path. The statuses answered, for the printed figure.
 */
export async function fuzzInProcess(run: InProcessRun): Promise<StatusTally> {
  const tally = new StatusTally();
  await fc.assert(
    fc.asyncProperty(run.requests, async (request) => {
      const answer = await sendInProcess(run.fetch, run.origin, request);
      if (answer === null) return;
      tally.add(answer.status);
      const violation = answerViolation({ ...answer, method: request.method }, run.rules);
      if (violation) throw new Error(`${request.method} ${request.path.slice(0, 80)}: ${violation}`);
    }),
    { numRuns: run.runs, seed: run.seed, endOnFailure: true },
  );
  return tally;
}

/** A fuzz run against a server listening on 127.0.0.1. */
export interface RawSocketRun {
  readonly requests: fc.Arbitrary<HostileRequest>;
  readonly port: number;
  readonly rules: AnswerRules;
  /** Requests in all; they go `batch` at once. */
  readonly runs: number;
  readonly batch: number;
  readonly seed: number;
}

/**
 * Sends `runs` generated requests on raw sockets, `batch` at once as clients come, some with their framing cut or
 * too long (such a request waits out its 300 ms). Every answer is judged by `rules`, except none at all (the server
 * waited, then closed: never a crash) and the HTTP parser's own 400 for a broken frame (no envelope before the app).
 */
export async function fuzzRawSocket(
  run: RawSocketRun,
): Promise<{ readonly tally: StatusTally; readonly violations: string[] }> {
  const tally = new StatusTally();
  const violations: string[] = [];
  const batches = fc.array(fc.tuple(run.requests, fc.nat(5)), {
    minLength: run.batch,
    maxLength: run.batch,
  });
  await fc.assert(
    fc.asyncProperty(batches, async (requests) => {
      const answers = await Promise.all(
        requests.map(([request, framing]) => sendRaw(run.port, wireBytes(request, framing), 300)),
      );
      for (const [index, answer] of answers.entries()) {
        const request = requests[index]?.[0];
        tally.add(answer.status);
        if (answer.status === 0 || !request) continue;
        const violation = answerViolation({ ...answer, method: request.method }, run.rules);
        if (violation && answer.status !== 400)
          violations.push(`${request.method} ${request.path.slice(0, 80)}: ${violation}`);
      }
    }),
    { numRuns: run.runs / run.batch, seed: run.seed },
  );
  return { tally, violations };
}

/** A slowloris client: `closed` resolves with the milliseconds until the server cut it off. Disposing stops it. */
export interface DribblingClient extends Disposable {
  readonly closed: Promise<number>;
}

/**
 * Opens a connection to 127.0.0.1:`port`, sends `head` (a request line and headers, never the blank line that ends
 * them) and then one more header line every `everyMs`, as a client that holds a socket open on purpose.
 */
export function dribbleHeaders(port: number, head: string, everyMs = 100): DribblingClient {
  const socket: Socket = connect(port, "127.0.0.1");
  const closed = new Promise<number>((resolve) => {
    const started = Date.now();
    socket.on("close", () => resolve(Date.now() - started));
    socket.on("error", () => undefined);
  });
  socket.write(head);
  const dribble = setInterval(() => socket.write("x-slow: 1\r\n"), everyMs);
  return {
    closed,
    [Symbol.dispose]() {
      clearInterval(dribble);
      socket.destroy();
    },
  };
}
