import {
  type EscalationChannel,
  type EscalationChannelPublic,
  type EscalationChannelUpdate,
  EscalationSettings,
  type EscalationSettingsResponse,
  PutEscalationSettingsRequest,
  RingbackError,
  secretHint,
} from "@ringback/protocol";
import type { RawConfig } from "../files/config-file.js";
import { isSameOrigin } from "../secrets/secret-origin.js";

const DEFAULT_SETTINGS = EscalationSettings.parse({ channels: [] });

/** The `escalation` section of daemon.json; a section that does not parse counts as none (defaults, no channel). */
export function savedEscalation(raw: Readonly<RawConfig>): EscalationSettings {
  const parsed = EscalationSettings.safeParse(raw.escalation);
  return parsed.success ? parsed.data : DEFAULT_SETTINGS;
}

/** The settings as the interface returns them: every secret as a hint only. */
export function publicEscalation(settings: EscalationSettings): EscalationSettingsResponse {
  return {
    channels: settings.channels.map(publicChannel),
    schedule: settings.schedule,
    idleAwaySeconds: settings.idleAwaySeconds,
  };
}

function publicChannel(channel: EscalationChannel): EscalationChannelPublic {
  switch (channel.kind) {
    case "ntfy":
      return {
        kind: "ntfy",
        serverUrl: channel.serverUrl,
        topic: channel.topic,
        tokenHint: channel.token ? secretHint(channel.token) : null,
      };
    case "pushover":
      return {
        kind: "pushover",
        userKeyHint: secretHint(channel.userKey),
        appTokenHint: secretHint(channel.appToken),
      };
    case "telegram":
      return { kind: "telegram", botTokenHint: secretHint(channel.botToken), chatId: channel.chatId };
    case "twilio":
      return {
        kind: "twilio",
        accountSid: channel.accountSid,
        authTokenHint: secretHint(channel.authToken),
        from: channel.from,
        to: channel.to,
      };
  }
}

/**
 * The section after `PUT /escalation/settings` (the whole of it). A channel's secret left out keeps the one saved for
 * the same channel, and only while it points where it pointed (the ntfy token stays with its server's origin, the
 * Twilio token with its account): a device cannot send a saved secret somewhere new. Nothing saved to keep:
 * `invalid_escalation_settings`. The schedule and idle threshold left out are kept.
 */
export function updatedEscalation(raw: Readonly<RawConfig>, body: unknown): EscalationSettings {
  const parsed = PutEscalationSettingsRequest.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RingbackError(
      "invalid_escalation_settings",
      `${issue?.path.join(".") || "body"}: ${issue?.message}`,
    );
  }
  const saved = savedEscalation(raw);
  const request = parsed.data;
  return {
    channels: request.channels.map((channel) => withSecrets(channel, saved.channels)),
    schedule: request.schedule ?? saved.schedule,
    idleAwaySeconds: request.idleAwaySeconds === undefined ? saved.idleAwaySeconds : request.idleAwaySeconds,
  };
}

function withSecrets(
  update: EscalationChannelUpdate,
  savedChannels: readonly EscalationChannel[],
): EscalationChannel {
  switch (update.kind) {
    case "ntfy": {
      const saved = savedOf(savedChannels, "ntfy");
      const { token, ...rest } = update;
      if (token === null) return rest;
      if (token !== undefined) return { ...rest, token };
      const isKept = saved?.token !== undefined && isSameOrigin(saved.serverUrl, update.serverUrl);
      return isKept ? { ...rest, token: saved.token } : rest;
    }
    case "pushover": {
      const saved = savedOf(savedChannels, "pushover");
      return {
        kind: "pushover",
        userKey: update.userKey ?? required(saved?.userKey, "Pushover user key"),
        appToken: update.appToken ?? required(saved?.appToken, "Pushover app token"),
      };
    }
    case "telegram": {
      const saved = savedOf(savedChannels, "telegram");
      return { ...update, botToken: update.botToken ?? required(saved?.botToken, "Telegram bot token") };
    }
    case "twilio": {
      const saved = savedOf(savedChannels, "twilio");
      const kept = saved?.accountSid === update.accountSid ? saved.authToken : undefined;
      return {
        ...update,
        authToken: update.authToken ?? required(kept, "Twilio auth token for this account"),
      };
    }
  }
}

function savedOf<Kind extends EscalationChannel["kind"]>(
  channels: readonly EscalationChannel[],
  kind: Kind,
): Extract<EscalationChannel, { kind: Kind }> | undefined {
  return channels.find(
    (channel): channel is Extract<EscalationChannel, { kind: Kind }> => channel.kind === kind,
  );
}

function required(secret: string | undefined, what: string): string {
  if (secret === undefined) {
    throw new RingbackError(
      "invalid_escalation_settings",
      `The ${what} is required: none is saved on this computer.`,
    );
  }
  return secret;
}
