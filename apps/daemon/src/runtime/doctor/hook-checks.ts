import { type AgentHookState, inspectInstallation } from "@ringback/hook";
import { type DoctorCheck, fail, ok, warn } from "./doctor-check.js";

const AGENT_NAMES = { "claude-code": "Claude Code", codex: "Codex" } as const;

/**
 * The Stop hook of each agent as `ringback install` would write it now (and its permission hook beside it), and
 * Codex's trust record for it (Codex
 * skips an untrusted hook without a word). One agent without the hook is a warning when the other has it: a user
 * may run only one of them.
 */
export function hookChecks(env: NodeJS.ProcessEnv): DoctorCheck[] {
  let states: AgentHookState[];
  try {
    states = inspectInstallation({ env });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [
      fail(
        "hook",
        `the agents' hook files cannot be read: ${reason}`,
        "fix the file named, then: ringback install",
      ),
    ];
  }
  const isAnyInstalled = states.some((state) => state.isInstalled);
  return states.flatMap((state) => {
    const stopHook = hookCheck(state, isAnyInstalled);
    // Without the Stop hook the check above already says to install; with it, the permission hook comes along.
    return state.isInstalled ? [stopHook, permissionHookCheck(state)] : [stopHook];
  });
}

/**
 * The PermissionRequest hook beside an installed Stop hook: without it (or untrusted by Codex) an agent waiting for
 * permission never rings as "needs you". A warning: the agent still asks at the keyboard as before.
 */
function permissionHookCheck(state: AgentHookState): DoctorCheck {
  const id = `permission-hook-${state.agent}`;
  const name = AGENT_NAMES[state.agent];
  const { permission } = state;
  const details = { file: state.file, trust: permission.trust ?? null };
  const lost = "an ask for permission never rings as a needs-you call";
  if (!permission.isInstalled)
    return warn(
      id,
      `${name} has no Ringback permission hook in ${state.file}: ${lost}`,
      "ringback install",
      details,
    );
  if (permission.trust === "missing" || permission.trust === "stale")
    return warn(
      id,
      `Codex's trust record for the permission hook is ${permission.trust}: it skips it silently, so ${lost}`,
      "ringback install",
      details,
    );
  if (!permission.isCurrent)
    return warn(
      id,
      `${name}'s permission hook is not the one this ringback installs`,
      "ringback install",
      details,
    );
  return ok(
    id,
    `${name}: permission hook installed${permission.trust === "current" ? " and trusted" : ""}`,
    details,
  );
}

function hookCheck(state: AgentHookState, isAnyInstalled: boolean): DoctorCheck {
  const id = `hook-${state.agent}`;
  const name = AGENT_NAMES[state.agent];
  const details = { file: state.file, command: state.command, trust: state.trust ?? null };
  if (!state.isInstalled) {
    const summary = `${name} has no Ringback Stop hook in ${state.file}: its turns never ring`;
    return isAnyInstalled
      ? warn(id, `${summary} (fine if you do not use ${name})`, "ringback install", details)
      : fail(id, summary, "ringback install", details);
  }
  if (!state.isHookFilePresent)
    return fail(
      id,
      `${name}'s Stop hook runs a file that is gone: ${state.command}`,
      "ringback install",
      details,
    );
  if (state.trust === "missing")
    return fail(
      id,
      `Codex has no trust record for the hook in ${state.configFile}: it skips it silently`,
      "ringback install",
      details,
    );
  if (state.trust === "stale")
    return fail(
      id,
      `Codex's trust record in ${state.configFile} is for another command: it skips the hook silently`,
      "ringback install",
      details,
    );
  if (!state.isCurrent)
    return warn(
      id,
      `${name}'s Stop hook is not the one this ringback installs (${state.command})`,
      "ringback install",
      details,
    );
  return ok(id, `${name}: Stop hook installed${state.trust === "current" ? " and trusted" : ""}`, details);
}
