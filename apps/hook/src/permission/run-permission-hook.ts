import type { AgentAdapter, Shape } from "../agent/agent-adapter.js";
import type { AgentKind } from "../agent-kind.js";
import { locateDaemon } from "../daemon-call/daemon-location.js";
import { describeMissingKey } from "../daemon-call/describe-outcome.js";
import { postToDaemon } from "../daemon-call/post-report.js";
import { PERMISSION_WAIT_MS } from "../daemon-call/protocol-constants.js";
import type { DebugLog } from "../debug-log.js";
import { agentPermissionAnswer } from "./agent-permission-answer.js";
import { buildPermissionRequest } from "./build-permission-request.js";
import { describePermissionResult } from "./describe-permission-outcome.js";
import { permissionRequestBody } from "./fit-permission-limit.js";
import { permissionResultOf } from "./permission-answer.js";
import { permissionPayloadFrom } from "./permission-payload.js";

/** Beyond the daemon's own wait: the daemon answers `expired` at PERMISSION_WAIT_MS, the hook gives up after this. */
const PERMISSION_WAIT_MARGIN_MS = 15_000;

/** How long the hook waits for the daemon's answer to a permission request. */
export const PERMISSION_HOOK_WAIT_MS = PERMISSION_WAIT_MS + PERMISSION_WAIT_MARGIN_MS;

export interface PermissionHookContext {
  kind: AgentKind;
  adapter: AgentAdapter;
  env: NodeJS.ProcessEnv;
  log: DebugLog;
  stdout: NodeJS.WritableStream;
  dryRun: boolean;
  /** Epoch ms after which the transcript is no longer searched (the hook's first budget). */
  deadline: number;
  /** How long to wait for the daemon's answer. */
  waitMs: number;
  /** Called before the long wait begins, with its length (the CLI pushes its watchdog back). */
  onWait?: (waitMs: number) => void;
}

function timeoutSignal(timeoutMs: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), timeoutMs).unref();
  return controller.signal;
}

/** Writes the agent's answer and resolves once it is handed to the system, so the process may end right after. */
function print(stdout: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => stdout.write(text, () => resolve()));
}

/**
 * The `PermissionRequest` path: posts the ask to the daemon (`POST /permission-requests`), waits for a person's
 * decision, and prints it in the agent's format. Prints nothing for every other ending (no decision, the daemon
 * down or confused, any error), so the agent takes its normal path: nothing ever allows by default.
 */
export async function runPermissionHook(fields: Shape, context: PermissionHookContext): Promise<void> {
  const { log } = context;
  const parsed = permissionPayloadFrom(fields);
  if (!parsed.ok) return log(`not asked: stdin is not a PermissionRequest payload (${parsed.reason})`);

  const post = await buildPermissionRequest(context.adapter, parsed.payload, {
    cwd: process.cwd(),
    deadline: context.deadline,
  });
  const body = permissionRequestBody(post);
  if (body === undefined)
    return log(
      "not asked: the request cannot be shortened to fit the daemon's body limit; answer it in the agent",
    );
  if (context.dryRun) {
    await print(context.stdout, `${JSON.stringify(JSON.parse(body), null, 2)}\n`);
    return;
  }

  const daemon = locateDaemon(context.env);
  if (!daemon.key) return log(describeMissingKey(daemon, "not asked"));
  context.onWait?.(context.waitMs);
  const outcome = await postToDaemon(
    { port: daemon.port, key: daemon.key },
    { path: "/permission-requests", body, readsAnswer: true },
    timeoutSignal(context.waitMs),
  );
  const result = permissionResultOf(outcome);
  if (result.kind === "decided") await print(context.stdout, agentPermissionAnswer(result.decision));
  log(describePermissionResult(result, context.kind, daemon, context.waitMs));
}
