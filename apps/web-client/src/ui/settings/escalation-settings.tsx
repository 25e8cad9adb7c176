import { EscalationController } from "@ringback/client";
import {
  COMPUTER_TEXTS,
  ESCALATION_TEXTS,
  type EscalationTexts,
  type InterfaceLanguage,
} from "@ringback/client/texts";
import { computerProblemText } from "@ringback/client/views";
import type {
  EscalationChannelPublic,
  EscalationChannelUpdate,
  EscalationSettingsResponse,
} from "@ringback/protocol";
import { useEffect, useMemo, useState } from "preact/hooks";
import type { AppController } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly controller: AppController;
  readonly language: InterfaceLanguage;
}

type Kind = EscalationChannelPublic["kind"];
const KINDS: readonly Kind[] = ["ntfy", "pushover", "telegram", "twilio"];
/** The fields of each kind, in order; the secret ones are write-only. */
const FIELDS: Record<Kind, readonly { name: string; label: keyof EscalationTexts; isSecret: boolean }[]> = {
  ntfy: [
    { name: "serverUrl", label: "serverUrl", isSecret: false },
    { name: "topic", label: "topic", isSecret: false },
    { name: "token", label: "token", isSecret: true },
  ],
  pushover: [
    { name: "userKey", label: "userKey", isSecret: true },
    { name: "appToken", label: "appToken", isSecret: true },
  ],
  telegram: [
    { name: "botToken", label: "botToken", isSecret: true },
    { name: "chatId", label: "chatId", isSecret: false },
  ],
  twilio: [
    { name: "accountSid", label: "accountSid", isSecret: false },
    { name: "authToken", label: "authToken", isSecret: true },
    { name: "from", label: "from", isSecret: false },
    { name: "to", label: "to", isSecret: false },
  ],
};

function kindName(kind: Kind, t: EscalationTexts): string {
  return { ntfy: t.kindNtfy, pushover: t.kindPushover, telegram: t.kindTelegram, twilio: t.kindTwilio }[kind];
}

/** What a saved channel shows: its addresses and its secrets' hints. */
function channelSummary(channel: EscalationChannelPublic, t: EscalationTexts): string {
  switch (channel.kind) {
    case "ntfy":
      return `${channel.serverUrl}/${channel.topic}${channel.tokenHint ? `, ${t.savedSecret(channel.tokenHint)}` : ""}`;
    case "pushover":
      return `${t.savedSecret(channel.userKeyHint)}, ${t.savedSecret(channel.appTokenHint)}`;
    case "telegram":
      return `${channel.chatId}, ${t.savedSecret(channel.botTokenHint)}`;
    case "twilio":
      return `${channel.from} → ${channel.to}, ${t.savedSecret(channel.authTokenHint)}`;
  }
}

/** The fields typed for a kind, as the save sends them: an empty secret is left out (the computer keeps its own). */
function typedChannel(kind: Kind, values: Record<string, string>): EscalationChannelUpdate {
  const entries = FIELDS[kind]
    .map((field) => [field.name, (values[field.name] ?? "").trim()] as const)
    .filter(([, value]) => value !== "");
  return { kind, ...Object.fromEntries(entries) } as EscalationChannelUpdate;
}

/** Seconds typed, or null for an empty field (never / off). */
function secondsOf(text: string): number | null {
  return text.trim() === "" ? null : Number(text);
}

function timingFields(settings: EscalationSettingsResponse | null) {
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? "" : String(value);
  return {
    needsYou: text(settings?.schedule.needsYou.afterSeconds),
    finished: text(settings?.schedule.finished.afterSeconds),
    step: text(settings?.schedule.needsYou.stepSeconds),
    idle: text(settings?.idleAwaySeconds),
  };
}

/**
 * Settings › Escalation: the chosen computer's ladder. Channels in the order they are tried (secrets write-only,
 * shown as hints), when each kind of call escalates, the idle time that counts as away, and "Test the ladder".
 */
export function EscalationSettings({ controller, language }: Props) {
  const t = texts(ESCALATION_TEXTS, language);
  const computerTexts = texts(COMPUTER_TEXTS, language);
  const escalation = useMemo(() => new EscalationController(() => controller.daemon.client()), [controller]);
  const view = useObservable(escalation);
  const [kind, setKind] = useState<Kind>("ntfy");
  const [values, setValues] = useState<Record<string, string>>({});
  const [timing, setTiming] = useState(() => timingFields(null));
  useEffect(() => {
    escalation.load().catch(() => undefined);
  }, [escalation]);
  useEffect(() => setTiming(timingFields(view.settings)), [view.settings]);

  const saveChannel = (event: Event) => {
    event.preventDefault();
    void escalation.saveChannel(typedChannel(kind, values)).then((isSaved) => {
      if (isSaved) setValues({});
    });
  };
  const saveTiming = (event: Event) => {
    event.preventDefault();
    const step = secondsOf(timing.step) ?? 30;
    void escalation.saveTiming({
      schedule: {
        needsYou: { afterSeconds: secondsOf(timing.needsYou), stepSeconds: step },
        finished: { afterSeconds: secondsOf(timing.finished), stepSeconds: step },
      },
      idleAwaySeconds: secondsOf(timing.idle),
    });
  };
  const channels = view.settings?.channels ?? [];
  const isBusy = view.busy !== null;

  return (
    <section class="card escalation-settings" data-testid="escalation-settings">
      <h2>{t.escalation}</h2>
      <p class="hint">{t.escalationHint}</p>
      {view.settings && channels.length === 0 && <p class="notice">{t.noChannel}</p>}
      <ol class="device-list" data-testid="escalation-channels">
        {channels.map((channel) => (
          <li key={channel.kind} data-kind={channel.kind}>
            <span class="name">{kindName(channel.kind, t)}</span>
            <span class="meta">{channelSummary(channel, t)}</span>
            <button
              type="button"
              class="remove"
              disabled={isBusy}
              onClick={() => void escalation.removeChannel(channel.kind)}
            >
              {t.removeChannel}
            </button>
          </li>
        ))}
      </ol>
      <form onSubmit={saveChannel} data-testid="escalation-channel-form">
        <h3>{t.addChannel}</h3>
        <select
          data-testid="escalation-kind"
          value={kind}
          onChange={(event) => {
            setKind(event.currentTarget.value as Kind);
            setValues({});
          }}
        >
          {KINDS.map((option) => (
            <option key={option} value={option}>
              {kindName(option, t)}
            </option>
          ))}
        </select>
        {FIELDS[kind].map((field) => {
          const value = values[field.name] ?? "";
          const onInput = (event: { currentTarget: HTMLInputElement }) =>
            setValues({ ...values, [field.name]: event.currentTarget.value });
          const testId = `escalation-${field.name}`;
          // A secret is write-only: a password field, never filled from what is saved.
          return field.isSecret ? (
            <label class="field" key={`${kind}-${field.name}`}>
              {t[field.label] as string}
              <input
                type="password"
                autocomplete="off"
                data-testid={testId}
                value={value}
                onInput={onInput}
              />
            </label>
          ) : (
            <label class="field" key={`${kind}-${field.name}`}>
              {t[field.label] as string}
              <input type="text" autocomplete="off" data-testid={testId} value={value} onInput={onInput} />
            </label>
          );
        })}
        {channels.some((channel) => channel.kind === kind) && <p class="hint">{t.keepSecret}</p>}
        <button type="submit" disabled={isBusy}>
          {t.saveChannel}
        </button>
      </form>
      <form onSubmit={saveTiming} data-testid="escalation-timing-form">
        {(
          [
            ["needsYou", t.needsYouAfter],
            ["finished", t.finishedAfter],
            ["step", t.stepSeconds],
            ["idle", t.idleAway],
          ] as const
        ).map(([name, label]) => (
          <label class="field" key={name}>
            {label}
            <input
              type="number"
              inputMode="numeric"
              data-testid={`escalation-${name}`}
              value={timing[name]}
              onInput={(event) => setTiming({ ...timing, [name]: event.currentTarget.value })}
            />
          </label>
        ))}
        <button type="submit" disabled={isBusy}>
          {t.saveTiming}
        </button>
      </form>
      {view.problem && (
        <p class="error" data-testid="escalation-problem" data-kind={view.problem.kind}>
          {computerProblemText(view.problem, computerTexts)}
        </p>
      )}
      {view.notice === "saved" && <p class="hint">{t.saved}</p>}
      <button
        type="button"
        data-testid="escalation-test"
        disabled={isBusy}
        onClick={() => void escalation.test()}
      >
        {view.busy === "testing" ? t.testing : t.testLadder}
      </button>
      {view.testResult && (
        <ul data-testid="escalation-test-result">
          {view.testResult.rungs.map(({ rung, answer }) => (
            <li key={rung} data-outcome={answer.outcome}>
              {t.rungAnswer(
                rung,
                answer.outcome,
                "reason" in answer ? answer.reason : "status" in answer ? `HTTP ${answer.status}` : "",
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
