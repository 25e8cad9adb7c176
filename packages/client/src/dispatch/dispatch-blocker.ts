import { DISPATCH_WORDS_MAX, type DispatchAgent } from "@ringback/protocol";

/** Whether the chosen computer's daemon can take a dispatch now, as the last options read found it. */
export type Availability =
  | "checking"
  | "ready"
  /** No computer has joined the account. */
  | "no-computer"
  /** The relay lists the computer as offline. */
  | "computer-offline"
  /** The relayed request failed with computer_offline / computer_timeout: the daemon is not running. */
  | "daemon-not-running"
  | "tracker-not-configured"
  | "relay-unreachable"
  /** Any other refusal (another key, an unexpected answer); its message is shown. */
  | "unavailable";

/** Why the dispatch button is disabled; the screen states it. */
export type DispatchBlocker =
  | Exclude<Availability, "ready">
  | "no-project"
  | "no-agent"
  | "agent-offline"
  | "no-issue"
  | "too-long"
  | "empty"
  | "images-preparing"
  | "image-failed";

export type DispatchMode = "issue" | "comment";

export interface DraftFacts {
  readonly availability: Availability;
  readonly mode: DispatchMode;
  readonly projectId: string | null;
  readonly agentId: string | null;
  readonly agents: readonly DispatchAgent[];
  readonly issueId: string | null;
  readonly words: string;
  readonly images: readonly { readonly status: "preparing" | "ready" | "failed" }[];
}

/**
 * The first reason the draft cannot be dispatched, or null. The computer and tracker come first (nothing else can
 * be fixed on this screen while they are missing); images alone, without words, are a dispatch.
 */
export function dispatchBlocker(draft: DraftFacts): DispatchBlocker | null {
  if (draft.availability !== "ready") return draft.availability;
  if (draft.mode === "issue") {
    if (draft.projectId === null) return "no-project";
    const agent = draft.agents.find((candidate) => candidate.id === draft.agentId);
    if (!agent) return "no-agent";
    if (!agent.online) return "agent-offline";
  } else if (draft.issueId === null) return "no-issue";
  if (draft.words.length > DISPATCH_WORDS_MAX) return "too-long";
  if (draft.images.some((image) => image.status === "preparing")) return "images-preparing";
  if (draft.images.some((image) => image.status === "failed")) return "image-failed";
  if (draft.words.trim() === "" && draft.images.length === 0) return "empty";
  return null;
}
