import { z } from "zod";
import { nullableString, optionalId } from "./json-fields.js";
import type { AgentRuntime, RuntimeOperations } from "./runtimes.js";
import type { Transport } from "./transport.js";

export interface Agent {
  id: string;
  workspaceId: string;
  name: string;
  description: string;
  avatarUrl: string | null;
  /** Null when the agent has no runtime (it must be bound to one before it can run). */
  runtimeId: string | null;
  runtimeBound: boolean;
  runtimeMode: string;
  /** The tracker's own agent status: `idle`, `working`, `blocked`, `error` or `offline`. */
  status: string;
  ownerId: string | null;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** An agent with `online`: true when the computer hosting its runtime is online. */
export interface AgentWithOnline extends Agent {
  online: boolean;
}

const AgentJson = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    description: z.string().nullish(),
    avatar_url: nullableString,
    runtime_id: optionalId,
    runtime_bound: z.boolean().nullish(),
    runtime_mode: z.string().nullish(),
    status: z.string().nullish(),
    owner_id: nullableString,
    archived_at: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
  })
  .transform(
    (json): Agent => ({
      id: json.id,
      workspaceId: json.workspace_id,
      name: json.name,
      description: json.description ?? "",
      avatarUrl: json.avatar_url,
      runtimeId: json.runtime_id,
      runtimeBound: json.runtime_bound ?? json.runtime_id !== null,
      runtimeMode: json.runtime_mode ?? "local",
      status: json.status ?? "idle",
      ownerId: json.owner_id,
      archivedAt: json.archived_at,
      createdAt: json.created_at,
      updatedAt: json.updated_at,
    }),
  );

/** Runnable per the tracker: bound to a runtime, and that runtime's status is `online`. */
export function isAgentOnline(agent: Agent, runtimes: readonly AgentRuntime[]): boolean {
  if (!agent.runtimeBound || agent.runtimeId === null) return false;
  return runtimes.some((runtime) => runtime.id === agent.runtimeId && runtime.status === "online");
}

export function agentOperations(transport: Transport, runtimes: RuntimeOperations) {
  function listAgents(input: { workspaceId: string }): Promise<Agent[]> {
    return transport.read(
      { method: "GET", path: "/api/agents", workspaceId: input.workspaceId },
      z.array(AgentJson),
    );
  }

  return {
    /** The workspace's agents (archived ones left out, private ones only when the user may see them). */
    listAgents,

    /** The agents with `online` derived from their runtimes (two reads, made at the same time). */
    async listAgentsWithOnline(input: { workspaceId: string }): Promise<AgentWithOnline[]> {
      const [agents, runtimeList] = await Promise.all([listAgents(input), runtimes.listRuntimes(input)]);
      return agents.map((agent) => ({ ...agent, online: isAgentOnline(agent, runtimeList) }));
    },

    /** One agent; unknown: `agent_not_found`. */
    getAgent(input: { workspaceId: string; agentId: string }): Promise<Agent> {
      return transport.read(
        {
          method: "GET",
          path: `/api/agents/${encodeURIComponent(input.agentId)}`,
          workspaceId: input.workspaceId,
          errors: { notFound: "agent_not_found" },
        },
        AgentJson,
      );
    },
  };
}

export type AgentOperations = ReturnType<typeof agentOperations>;
