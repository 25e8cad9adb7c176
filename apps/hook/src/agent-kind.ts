import type { LocalAgentSource } from "@ringback/protocol";

/** The agents whose Stop hook this bundle handles, in protocol's words (`ReportRequest.source`). */
export const AGENT_KINDS = ["claude-code", "codex"] as const satisfies readonly LocalAgentSource[];

export type AgentKind = (typeof AGENT_KINDS)[number];

// Fails to compile when protocol adds an agent kind this list does not name.
const everyAgentKindListed: Exclude<LocalAgentSource, AgentKind> extends never ? true : false = true;
void everyAgentKindListed;

export function isAgentKind(value: string | undefined): value is AgentKind {
  return (AGENT_KINDS as readonly string[]).includes(value ?? "");
}
