import { z } from "zod";
import { PERMISSION_REASON_MAX_CHARS } from "../limits.js";
import { KeptAwaySchedule } from "./away-schedule.js";
import { DeviceName } from "./relay.js";
import { EventId, ReportSource } from "./report.js";
import { RequestStamp } from "./request-stamp.js";

/**
 * "Needs you" calls: an agent stopped mid-turn to ask permission (run a command, edit a file, reach the network).
 * The hook posts the ask to the daemon and waits; the daemon seals it for the devices as a call of its own kind; the
 * first device to decide sends a sealed decision back through the relay, bound to that ask, and the hook prints it.
 * Nothing allows by default: every other ending leaves the agent on its normal path.
 */

/**
 * Every "needs you" call's event id starts so (the computer mints it): a reply to one is a decision, never a message
 * for the agent; and the relay, which holds the id anyway, words its content-free push for it ("An agent needs you").
 */
export const NEEDS_YOU_EVENT_ID_PREFIX = "needs_";

export function isNeedsYouEventId(eventId: string): boolean {
  return eventId.startsWith(NEEDS_YOU_EVENT_ID_PREFIX);
}

/** The agents that ask permission through the hook. */
export const PermissionAgent = ReportSource.exclude(["tracker"]);
export type PermissionAgent = z.infer<typeof PermissionAgent>;

/** Parts of an ask the hook shortened to fit the body limit; the call says so. */
export const PermissionShortened = z.enum(["toolInput", "lastWords"]);
export type PermissionShortened = z.infer<typeof PermissionShortened>;

/** `POST /permission-requests` body (hook -> daemon, local interface): the ask as the agent gave it. */
export const PermissionRequestPost = z.object({
  agent: PermissionAgent,
  sessionId: z.string().min(1).max(200),
  cwd: z.string().min(1).max(4096),
  /** The agent's id of the tool call (Claude Code's `tool_use_id`, Codex's turn or call id), when it gives one. */
  askId: z.string().min(1).max(200).optional(),
  /** `Bash`, `Edit`, `Write`, `WebFetch`, an MCP tool's name... */
  toolName: z.string().min(1).max(200),
  /** The tool's input as the agent gave it (the command and its description, the file and the edit...). */
  toolInput: z.unknown(),
  /** The agent's last words before it asked, from its transcript; null when it said nothing. */
  lastWords: z.string().nullable(),
  /** The agent's permission mode, when it says (`default`, `acceptEdits`, `on-request`...). */
  permissionMode: z.string().max(100).optional(),
  shortened: z.array(PermissionShortened).max(2).default([]),
});
export type PermissionRequestPost = z.input<typeof PermissionRequestPost>;

/** What the person decided: allow this once, or deny. */
export const PermissionVerdict = z.enum(["allow", "deny"]);
export type PermissionVerdict = z.infer<typeof PermissionVerdict>;

/**
 * Why the hook gets no decision: the person is at the keyboard (`present`), nobody answered in time (`expired`), the
 * daemon has no relay to reach a phone (`not-linked`), or the call could not be raised (`failed`).
 */
export const PermissionNoDecision = z.enum(["present", "expired", "not-linked", "failed"]);
export type PermissionNoDecision = z.infer<typeof PermissionNoDecision>;

/** `POST /permission-requests` (200): the decision, or why there is none (the agent then takes its normal path). */
export const PermissionAnswer = z.discriminatedUnion("outcome", [
  z.object({
    outcome: z.literal("decided"),
    verdict: PermissionVerdict,
    /** The person's reason for a deny, passed to the agent; null when none was given. */
    reason: z.string().max(PERMISSION_REASON_MAX_CHARS).nullable(),
    /** The name of the device that decided. */
    decidedOn: z.string().max(200),
  }),
  z.object({ outcome: PermissionNoDecision }),
]);
export type PermissionAnswer = z.infer<typeof PermissionAnswer>;

/** The ask as the devices see it, sealed inside the call's payload (`SealedReportPayload.needsYou`). */
export const PermissionAsk = z.object({
  agent: PermissionAgent,
  toolName: z.string().min(1).max(200),
  toolInput: z.unknown(),
  /** SHA-256 (hex) of the tool input's canonical JSON: a decision names it, so it can only allow this input. */
  toolInputDigest: z.string().regex(/^[0-9a-f]{64}$/),
  lastWords: z.string().nullable(),
  shortened: z.array(PermissionShortened).max(2),
  /** When the hook stops waiting; a decision after it is refused. */
  expiresAt: z.iso.datetime({ offset: true }),
});
export type PermissionAsk = z.infer<typeof PermissionAsk>;

/**
 * A device's decision, sealed with the AAD `ringback/v2/permission-decision/<computerId>/<eventId>` (the computer
 * that raised the call, the call's event id) and stamped. It travels as a reply to the call
 * (`POST /v1/calls/<eventId>/replies`), so the relay treats it as one more ciphertext it cannot read.
 */
export const PermissionDecisionPlaintext = z.object({
  replyId: z.string().min(1),
  eventId: EventId,
  toolInputDigest: z.string().regex(/^[0-9a-f]{64}$/),
  verdict: PermissionVerdict,
  reason: z.string().max(PERMISSION_REASON_MAX_CHARS).nullable(),
  /**
   * The deciding device's own name, when it knows it: sealed with the decision, so the computer can tell the agent
   * where it was decided (the relay, which could say which device sent it, is not believed).
   */
  deviceName: DeviceName.optional(),
  ...RequestStamp.shape,
});
export type PermissionDecisionPlaintext = z.infer<typeof PermissionDecisionPlaintext>;

/**
 * Whether the computer's agents wait for a phone when they ask permission (`away`) or ask at the keyboard: the
 * latest change wins, whether the switch (phone or `ringback away`) or a ring mode's away time starting or ending.
 */
export const Presence = z.object({
  away: z.boolean(),
  /** When it last changed (ISO 8601); null when never set (the default: present). */
  changedAt: z.iso.datetime({ offset: true }).nullable(),
  /** Who changed it last: this computer's command line, a device, or a ring mode ("the ring mode \"Sleep\""). */
  changedBy: z.string().max(200).nullable(),
  /** The name of the ring mode whose hours set it, when one did (`changedBy` says it in English); else null or absent. */
  changedByMode: z.string().max(100).nullable().optional(),
  /** The ring modes' away times this computer keeps; absent from daemons older than them. */
  schedule: KeptAwaySchedule.nullable().optional(),
});
export type Presence = z.infer<typeof Presence>;

/** `Presence.changedBy` when the switch was set on the computer itself (`ringback away`, the local interface). */
export const PRESENCE_SET_HERE = "this computer";
/** `Presence.changedBy` when a device set it through the relay (a relayed request does not name its device). */
export const PRESENCE_SET_FROM_A_DEVICE = "a paired device";

/** `PUT /presence` body: local, or relayed from a device. */
export const PresenceUpdate = z.object({ away: z.boolean() });
export type PresenceUpdate = z.infer<typeof PresenceUpdate>;
