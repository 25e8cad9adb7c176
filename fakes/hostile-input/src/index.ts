export {
  type DribblingClient,
  dribbleHeaders,
  fuzzInProcess,
  fuzzRawSocket,
  type InProcessRun,
  type RawSocketRun,
} from "./fuzz-runs.js";
export {
  type AnswerRules,
  answerViolation,
  type ReceivedAnswer,
  StatusTally,
  secretInLines,
} from "./invariants.js";
export { nastyBody, nastyString, type WireBody, wrongTypedBody } from "./nasty-bodies.js";
export { type RawAnswer, sendInProcess, sendRaw, wireBytes } from "./raw-http.js";
export { type HostileRequest, hostileRequests, type RouteShape } from "./requests.js";

/** The seed of this run: `FUZZ_SEED` replays a failure; otherwise a fresh one, printed with the figures. */
export function fuzzSeed(env: NodeJS.ProcessEnv = process.env): number {
  const given = Number(env.FUZZ_SEED);
  return env.FUZZ_SEED && Number.isInteger(given) ? given : Math.floor(Math.random() * 2 ** 31);
}
