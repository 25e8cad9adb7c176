import { z } from "zod";
import { PROJECT_NAME_MAX_CHARS } from "./call-rules.js";
import { SealedText } from "./relay.js";
import { EventId, ReportSource } from "./report.js";

/*
 * The fleet: what each computer's agents are doing now, not only what ended. Each daemon keeps a small state of its
 * agents, seals it for the account's devices (AAD `ringback/v1/fleet/<computerId>`, the computer's relay device id),
 * pads the plaintext to a fixed step so its size says nothing, and puts it on the relay when it changes, coalesced.
 * The relay keeps the latest one per computer and passes it on; it never sees an agent, a project or a state.
 */

/** What an agent is doing. `needs-you`: a permission ask or a tracker question waits for the person. */
export const FleetAgentState = z.enum(["working", "needs-you", "finished", "failed"]);
export type FleetAgentState = z.infer<typeof FleetAgentState>;

/** The most agents one computer's state lists; the oldest ended ones go first. */
export const FLEET_AGENTS_MAX = 50;
/** An ended agent (finished or failed) leaves the state this long after it ended. */
export const FLEET_ENDED_KEPT_MS = 24 * 60 * 60 * 1000;
/** A daemon puts its state on the relay at most once in this time; changes in between are sent together. */
export const FLEET_UPDATE_MIN_INTERVAL_MS = 3000;
/** The sealed plaintext is padded with spaces to a multiple of this many bytes, so its size is a step count. */
export const FLEET_PAD_STEP_BYTES = 1024;
/** The largest padded plaintext a computer may put (the relay refuses a larger body). */
export const FLEET_SEALED_PLAINTEXT_MAX_BYTES = 32 * 1024;
/** The longest headline an entry carries. */
export const FLEET_HEADLINE_MAX_CHARS = 300;

/** One agent on one computer. */
export const FleetAgent = z
  .object({
    /** Stable for the agent's session: `<source>:<sessionId>`, or `tracker:<taskId>`. */
    agentId: z.string().min(1).max(200),
    source: ReportSource,
    /** The project: the tracker's project name, else the working directory's last part. */
    project: z.string().max(PROJECT_NAME_MAX_CHARS),
    state: FleetAgentState,
    /** When the agent entered this state (ISO time). */
    since: z.iso.datetime({ offset: true }),
    /** The call to open: the finished turn's report or the waiting ask; null while working. */
    eventId: EventId.nullable(),
    /** The checked brief's headline of a finished or failed turn, or what a needs-you ask wants; null otherwise. */
    headline: z.string().max(FLEET_HEADLINE_MAX_CHARS).nullable(),
  })
  .strict();
export type FleetAgent = z.infer<typeof FleetAgent>;

/** The plaintext a computer seals: its agents, newest change first, and a version that only grows. */
export const FleetState = z
  .object({
    /** Grows with every state the computer sends, so a device keeps the newest and drops a replayed older one. */
    version: z.number().int().nonnegative(),
    updatedAt: z.iso.datetime({ offset: true }),
    agents: z.array(FleetAgent).max(FLEET_AGENTS_MAX),
  })
  .strict();
export type FleetState = z.infer<typeof FleetState>;

/** `PUT /v1/daemon/fleet` body (computer -> relay): the padded, sealed `FleetState`. */
export const FleetStatePut = z.object({ sealed: SealedText }).strict();
export type FleetStatePut = z.infer<typeof FleetStatePut>;

/**
 * One computer's sealed state as the relay passes it on: SSE `fleet` data (no `id`: it is a state, not an event;
 * every current state is sent after `synced` on each connect), and an entry of `GET /v1/fleet`.
 */
export const RelayedFleetState = z.object({
  computerId: z.string(),
  sealed: SealedText,
  /** When the relay stored it. */
  receivedAt: z.string(),
});
export type RelayedFleetState = z.infer<typeof RelayedFleetState>;

/** `GET /v1/fleet` (200): every computer's latest state in the account. */
export const RelayedFleet = z.object({ computers: z.array(RelayedFleetState) });
export type RelayedFleet = z.infer<typeof RelayedFleet>;
