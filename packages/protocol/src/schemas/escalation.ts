import { z } from "zod";
import { EventId } from "./report.js";

/*
 * The escalation ladder: when a call is not answered, the computer's daemon reaches the phone by other channels,
 * one after another on the user's schedule. What goes to a channel is one fixed, content-free sentence and a link
 * to the app: never a brief, a command, a project name or a path.
 */

/** A "needs you" call escalates after this long unless the user sets otherwise. */
export const ESCALATION_NEEDS_YOU_AFTER_DEFAULT_SECONDS = 60;
/** The time between one rung and the next unless the user sets otherwise: five rungs fit a "needs you" wait. */
export const ESCALATION_STEP_DEFAULT_SECONDS = 30;
/** The shortest wait before a ladder starts or between rungs: a phone that rings gets the time to be picked up. */
export const ESCALATION_SECONDS_MIN = 10;
/** The longest wait a user may set (an hour). */
export const ESCALATION_SECONDS_MAX = 3600;
/** Input idle time after which the computer counts as away unless the user sets otherwise. */
export const IDLE_AWAY_DEFAULT_SECONDS = 120;
/** The shortest idle threshold: a pause to read is not being away. */
export const IDLE_AWAY_SECONDS_MIN = 30;
/** The longest idle threshold (a day). */
export const IDLE_AWAY_SECONDS_MAX = 86_400;

/** The one sentence every channel says or shows, whatever the call: it names nothing of the work. */
export const ESCALATION_SENTENCE = "Ringback: an agent is waiting for you. Open the app to answer.";
/** The title where a channel shows one. */
export const ESCALATION_TITLE = "Ringback";

const seconds = z.number().int().min(ESCALATION_SECONDS_MIN).max(ESCALATION_SECONDS_MAX);

/** When one kind of call escalates: `afterSeconds` after it starts ringing (null: never), then a rung every `stepSeconds`. */
export const EscalationTiming = z.object({ afterSeconds: seconds.nullable(), stepSeconds: seconds }).strict();
export type EscalationTiming = z.infer<typeof EscalationTiming>;

export const EscalationSchedule = z
  .object({
    needsYou: EscalationTiming.default({
      afterSeconds: ESCALATION_NEEDS_YOU_AFTER_DEFAULT_SECONDS,
      stepSeconds: ESCALATION_STEP_DEFAULT_SECONDS,
    }),
    finished: EscalationTiming.default({ afterSeconds: null, stepSeconds: ESCALATION_STEP_DEFAULT_SECONDS }),
  })
  .strict();
export type EscalationSchedule = z.infer<typeof EscalationSchedule>;

const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        (url.protocol === "http:" || url.protocol === "https:") && url.username === "" && url.password === ""
      );
    } catch {
      return false;
    }
  }, "must be an http(s) address without a user name or password");

/** A token as vendors mint them: letters, digits and a few marks, nothing that could break a header or a path. */
const token = z.string().regex(/^[A-Za-z0-9_:.-]{1,256}$/, "must be a token of letters and digits");
/** E.164: a plus and up to 15 digits. */
const phoneNumber = z.string().regex(/^\+[1-9][0-9]{6,14}$/, "must be a phone number like +15551234567");

/** The channels with their secrets, as daemon.json keeps them (`escalation.channels`), in the order they are tried. */
export const NtfyChannel = z
  .object({
    kind: z.literal("ntfy"),
    /** Any ntfy server, ntfy.sh or the user's own. */
    serverUrl: httpUrl,
    /** Topic names on a public server are readable by anyone who guesses them: only the fixed sentence goes there. */
    topic: z.string().regex(/^[-_A-Za-z0-9]{1,64}$/, "must be 1-64 letters, digits, - or _"),
    token: token.optional(),
  })
  .strict();
export const PushoverChannel = z
  .object({ kind: z.literal("pushover"), userKey: token, appToken: token })
  .strict();
export const TelegramChannel = z
  .object({
    kind: z.literal("telegram"),
    botToken: token,
    chatId: z.string().regex(/^(-?[0-9]{1,20}|@[A-Za-z0-9_]{5,32})$/, "must be a chat id or @channel"),
  })
  .strict();
export const TwilioChannel = z
  .object({
    kind: z.literal("twilio"),
    accountSid: z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must be an account SID (AC and 32 hex digits)"),
    authToken: token,
    from: phoneNumber,
    to: phoneNumber,
  })
  .strict();

export const EscalationChannel = z.discriminatedUnion("kind", [
  NtfyChannel,
  PushoverChannel,
  TelegramChannel,
  TwilioChannel,
]);
export type EscalationChannel = z.infer<typeof EscalationChannel>;
export type EscalationChannelKind = EscalationChannel["kind"];
export const ESCALATION_CHANNEL_KINDS = ["ntfy", "pushover", "telegram", "twilio"] as const;

/** The channels in the order they are tried, each kind once: one account per kind is all a person needs. */
function channelList<Channel extends z.ZodType<{ kind: string }>>(channel: Channel) {
  return z
    .array(channel)
    .max(ESCALATION_CHANNEL_KINDS.length)
    .refine(
      (channels) => new Set(channels.map((entry) => entry.kind)).size === channels.length,
      "each channel once",
    );
}

/** The `escalation` section of daemon.json. */
export const EscalationSettings = z
  .object({
    channels: channelList(EscalationChannel),
    schedule: EscalationSchedule.default(EscalationSchedule.parse({})),
    /** Input idle time after which the computer counts as away (null: only the switch and the ring modes decide). */
    idleAwaySeconds: z
      .number()
      .int()
      .min(IDLE_AWAY_SECONDS_MIN)
      .max(IDLE_AWAY_SECONDS_MAX)
      .nullable()
      .default(IDLE_AWAY_DEFAULT_SECONDS),
  })
  .strict();
export type EscalationSettings = z.infer<typeof EscalationSettings>;

/** The channels as `PUT /escalation/settings` takes them: a secret left out keeps the one saved for that channel. */
export const EscalationChannelUpdate = z.discriminatedUnion("kind", [
  NtfyChannel.extend({ token: token.nullable().optional() }),
  PushoverChannel.extend({ userKey: token.optional(), appToken: token.optional() }),
  TelegramChannel.extend({ botToken: token.optional() }),
  TwilioChannel.extend({ authToken: token.optional() }),
]);
export type EscalationChannelUpdate = z.infer<typeof EscalationChannelUpdate>;

/** `PUT /escalation/settings` body: the whole section. */
export const PutEscalationSettingsRequest = z
  .object({
    channels: channelList(EscalationChannelUpdate),
    schedule: EscalationSchedule.optional(),
    idleAwaySeconds: EscalationSettings.shape.idleAwaySeconds.optional(),
  })
  .strict();
export type PutEscalationSettingsRequest = z.input<typeof PutEscalationSettingsRequest>;

const hint = z.string();
/** A channel as the interface returns it: secrets only as hints (`****ab12`). */
export const EscalationChannelPublic = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("ntfy"), serverUrl: z.string(), topic: z.string(), tokenHint: hint.nullable() }),
  z.object({ kind: z.literal("pushover"), userKeyHint: hint, appTokenHint: hint }),
  z.object({ kind: z.literal("telegram"), botTokenHint: hint, chatId: z.string() }),
  z.object({
    kind: z.literal("twilio"),
    accountSid: z.string(),
    authTokenHint: hint,
    from: z.string(),
    to: z.string(),
  }),
]);
export type EscalationChannelPublic = z.infer<typeof EscalationChannelPublic>;

/** A saved channel as a save sends it back: its secrets left out, so the computer keeps the ones it has. */
export function keptChannel(channel: EscalationChannelPublic): EscalationChannelUpdate {
  switch (channel.kind) {
    case "ntfy":
      return { kind: "ntfy", serverUrl: channel.serverUrl, topic: channel.topic };
    case "pushover":
      return { kind: "pushover" };
    case "telegram":
      return { kind: "telegram", chatId: channel.chatId };
    case "twilio":
      return { kind: "twilio", accountSid: channel.accountSid, from: channel.from, to: channel.to };
  }
}

/** `GET` and `PUT /escalation/settings` (200). */
export const EscalationSettingsResponse = z.object({
  channels: z.array(EscalationChannelPublic),
  schedule: EscalationSchedule,
  idleAwaySeconds: z.number().int().nullable(),
});
export type EscalationSettingsResponse = z.infer<typeof EscalationSettingsResponse>;

/** A rung of the ladder: the repeat push through the relay, then the channels. */
export const LadderRungName = z.enum(["push", ...ESCALATION_CHANNEL_KINDS]);
export type LadderRungName = z.infer<typeof LadderRungName>;

/**
 * What a channel answered: `sent` (taken; `acknowledged` when the person already confirmed it), `refused` (the
 * service said no: a wrong token, a bad number; `status` is its HTTP status), `unreachable` (no answer in time), or
 * `skipped` (nothing to send it with, the reason says why).
 */
export const RungAnswer = z.discriminatedUnion("outcome", [
  z.object({ outcome: z.literal("sent"), status: z.number().int() }),
  z.object({ outcome: z.literal("refused"), status: z.number().int(), reason: z.string() }),
  z.object({ outcome: z.literal("unreachable"), reason: z.string() }),
  z.object({ outcome: z.literal("skipped"), reason: z.string() }),
]);
export type RungAnswer = z.infer<typeof RungAnswer>;

/** `POST /escalation/test` (200): every rung tried now, in order, with what each answered. */
export const EscalationTestResponse = z.object({
  rungs: z.array(z.object({ rung: LadderRungName, answer: RungAnswer })),
});
export type EscalationTestResponse = z.infer<typeof EscalationTestResponse>;

/** `POST /v1/daemon/events/<eventId>/push` (200): the relay pushes the computer's ringing call again now. */
export const CallPushedAgain = z.object({
  eventId: EventId,
  /** The devices it is pushed to. */
  devices: z.number().int().positive(),
});
export type CallPushedAgain = z.infer<typeof CallPushedAgain>;
