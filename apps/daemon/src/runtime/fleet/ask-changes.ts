import type { PermissionRequestPost } from "@ringback/protocol";
import { sessionAgent } from "./fleet-agent-identity.js";
import type { FleetChange } from "./fleet-change.js";

type Ask = Pick<PermissionRequestPost, "agent" | "sessionId" | "cwd" | "toolName" | "toolInput">;

/** A permission ask that rang: the agent needs the person, for what the ask wants. */
export function askRangChange(ask: Ask, eventId: string): FleetChange {
  return {
    kind: "needs-you",
    ...sessionAgent(ask.agent, ask.sessionId, ask.cwd),
    eventId,
    headline: askHeadline(ask),
  };
}

/** The ask no longer waits (decided, expired, the agent went on): the agent is working again. */
export function askEndedChange(ask: Pick<Ask, "agent" | "sessionId" | "cwd">, eventId: string): FleetChange {
  return { kind: "ask-ended", agentId: sessionAgent(ask.agent, ask.sessionId, ask.cwd).agentId, eventId };
}

/** What the ask wants, short: the command it would run, the file it would change, or the tool. */
function askHeadline(ask: Pick<Ask, "toolName" | "toolInput">): string {
  const input =
    typeof ask.toolInput === "object" && ask.toolInput !== null
      ? (ask.toolInput as Record<string, unknown>)
      : {};
  if (typeof input.command === "string") return `run ${input.command}`;
  if (Array.isArray(input.command) && input.command.every((part) => typeof part === "string"))
    return `run ${input.command.join(" ")}`;
  if (typeof input.file_path === "string") return `${ask.toolName.toLowerCase()} ${input.file_path}`;
  if (typeof input.url === "string") return `fetch ${input.url}`;
  return `use ${ask.toolName}`;
}
