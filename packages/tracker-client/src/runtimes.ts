import { z } from "zod";
import { nullableString } from "./json-fields.js";
import type { Transport } from "./transport.js";

export interface AgentRuntime {
  id: string;
  workspaceId: string;
  /** `custom_name` when set, else `name`, as the tracker displays it. */
  name: string;
  runtimeMode: string;
  provider: string;
  /** `online` or `offline`; the tracker marks a runtime offline when its heartbeats stop. */
  status: string;
  lastSeenAt: string | null;
  /** The Multica CLI version the runtime registered with, when it says. */
  cliVersion: string | null;
}

const RuntimeJson = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    name: z.string(),
    custom_name: nullableString,
    runtime_mode: z.string().nullish(),
    provider: z.string().nullish(),
    status: z.string(),
    last_seen_at: nullableString,
    metadata: z.record(z.string(), z.unknown()).nullish(),
  })
  .transform(
    (json): AgentRuntime => ({
      id: json.id,
      workspaceId: json.workspace_id,
      name: json.custom_name ?? json.name,
      runtimeMode: json.runtime_mode ?? "local",
      provider: json.provider ?? "",
      status: json.status,
      lastSeenAt: json.last_seen_at,
      cliVersion: typeof json.metadata?.cli_version === "string" ? json.metadata.cli_version : null,
    }),
  );

export function runtimeOperations(transport: Transport) {
  return {
    /** The workspace's agent runtimes (the computers agents run on) with their online status. */
    listRuntimes(input: { workspaceId: string }): Promise<AgentRuntime[]> {
      return transport.read(
        { method: "GET", path: "/api/runtimes", workspaceId: input.workspaceId },
        z.array(RuntimeJson),
      );
    },
  };
}

export type RuntimeOperations = ReturnType<typeof runtimeOperations>;
