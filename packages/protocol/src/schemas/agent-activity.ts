import { z } from "zod";
import { LocalAgentSource } from "./report.js";

/*
 * What an agent is doing between its reports: the hook posts a turn's start (Claude Code's and Codex's
 * `UserPromptSubmit`), so the fleet shows the agent working before it finishes or needs the person.
 */

/** What the hook saw the agent do. */
export const AgentActivity = z.enum(["turn-started"]);
export type AgentActivity = z.infer<typeof AgentActivity>;

/** `POST /agent-activity` body (hook -> daemon, local interface, signed like `/report`). */
export const AgentActivityPost = z
  .object({
    agent: LocalAgentSource,
    sessionId: z.string().min(1).max(200),
    cwd: z.string().min(1).max(4096),
    activity: AgentActivity,
  })
  .strict();
export type AgentActivityPost = z.infer<typeof AgentActivityPost>;
