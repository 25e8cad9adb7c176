import { parseArgs } from "node:util";
import {
  type EscalationChannelPublic,
  type EscalationChannelUpdate,
  EscalationSettingsResponse,
  EscalationTestResponse,
  type EscalationTiming,
  keptChannel,
  type PutEscalationSettingsRequest,
} from "@ringback/protocol";
import { type LocalDaemon, runningDaemon } from "../../runtime/doctor/local-daemon.js";
import { describeAnswer } from "../../runtime/escalation/escalation-runtime.js";
import { StartError } from "../../runtime/start-error.js";
import { readPassphraseFromStdin } from "../passphrase-input.js";

export const summary = "reach your phone by other channels when a call is not answered";
export const usage = `ringback escalation [ntfy|pushover|telegram|twilio|remove|schedule|idle|test]

  ringback escalation           the channels (secrets shown as ****ab12), the schedule and the idle threshold
  ringback escalation ntfy --server URL --topic TOPIC [--token TOKEN]
  ringback escalation pushover --user USER_KEY --app APP_TOKEN
  ringback escalation telegram --bot-token TOKEN --chat CHAT_ID
  ringback escalation twilio --account AC... --auth-token TOKEN --from +1555... --to +1555...
                                adds the channel, or changes it (a secret left out keeps the saved one); channels
                                are tried in the order they were added; a secret given as "-" is read from stdin
  ringback escalation remove KIND
  ringback escalation schedule [--needs-you SECONDS|never] [--finished SECONDS|never] [--step SECONDS]
                                when an unanswered call escalates (default: "needs you" after 60 s, "finished"
                                never), and the time between rungs (default 30 s)
  ringback escalation idle SECONDS|off
                                count as away after this much input idle time (default 120 s)
  ringback escalation test      every channel now, each with what its service answered
Every channel gets one fixed sentence and a link to the app: nothing of a brief, a command or a path.
Talks to the running daemon (ringback run).`;

function settingsOf(answer: { status: number; body: unknown } | null): EscalationSettingsResponse {
  if (!answer) throw new StartError("the daemon is not running: ringback run");
  const parsed = EscalationSettingsResponse.safeParse(answer.body);
  if (parsed.success) return parsed.data;
  const message = (answer.body as { error?: { message?: string } } | null)?.error?.message;
  throw new StartError(`the daemon refused: ${message ?? `HTTP ${answer.status}`}`);
}

function timingWords(timing: EscalationTiming): string {
  return timing.afterSeconds === null
    ? "never"
    : `after ${timing.afterSeconds} s, then a rung every ${timing.stepSeconds} s`;
}

function channelWords(channel: EscalationChannelPublic): string {
  switch (channel.kind) {
    case "ntfy":
      return `ntfy: ${channel.serverUrl}, topic ${channel.topic}, token ${channel.tokenHint ?? "none"}`;
    case "pushover":
      return `Pushover: user ${channel.userKeyHint}, app ${channel.appTokenHint} (emergency priority)`;
    case "telegram":
      return `Telegram: chat ${channel.chatId}, bot ${channel.botTokenHint}`;
    case "twilio":
      return `Twilio call: ${channel.from} -> ${channel.to}, account ${channel.accountSid}, token ${channel.authTokenHint}`;
  }
}

function describe(settings: EscalationSettingsResponse): string {
  const channels = settings.channels.map((channel, index) => `  ${index + 2}. ${channelWords(channel)}`);
  return [
    `"needs you" calls escalate ${timingWords(settings.schedule.needsYou)}`,
    `"finished" calls escalate ${timingWords(settings.schedule.finished)}`,
    "rungs:",
    "  1. the push again, at high urgency",
    ...(channels.length > 0
      ? channels
      : ["  (no channel: ringback escalation ntfy|pushover|telegram|twilio)"]),
    `away by itself after ${settings.idleAwaySeconds === null ? "(off)" : `${settings.idleAwaySeconds} s`} of input idle time`,
  ].join("\n");
}

async function secret(value: string | undefined): Promise<string | undefined> {
  return value === "-" ? (await readPassphraseFromStdin()).trim() : value;
}

function seconds(value: string | undefined, name: string, never: string): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === never) return null;
  const number = Number(value);
  if (!Number.isInteger(number) || number <= 0)
    throw new StartError(`--${name} takes whole seconds or "${never}"`);
  return number;
}

type Values = Record<string, string | undefined>;

async function givenChannel(kind: string, values: Values): Promise<EscalationChannelUpdate> {
  const defined = <T extends object>(object: T) =>
    Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined)) as T;
  switch (kind) {
    case "ntfy":
      return defined({
        kind: "ntfy",
        serverUrl: values.server ?? "",
        topic: values.topic ?? "",
        token: await secret(values.token),
      });
    case "pushover":
      return defined({
        kind: "pushover",
        userKey: await secret(values.user),
        appToken: await secret(values.app),
      });
    case "telegram":
      return defined({
        kind: "telegram",
        botToken: await secret(values["bot-token"]),
        chatId: values.chat ?? "",
      });
    case "twilio":
      return defined({
        kind: "twilio",
        accountSid: values.account ?? "",
        authToken: await secret(values["auth-token"]),
        from: values.from ?? "",
        to: values.to ?? "",
      });
    default:
      throw new StartError(`unknown channel: ${kind}\n${usage}`);
  }
}

function replaced(
  channels: EscalationChannelUpdate[],
  channel: EscalationChannelUpdate,
): EscalationChannelUpdate[] {
  const index = channels.findIndex((entry) => entry.kind === channel.kind);
  if (index === -1) return [...channels, channel];
  return channels.map((entry, at) => (at === index ? { ...entry, ...channel } : entry));
}

const text = { type: "string" } as const;
/** Every option of every subcommand: the channels' fields and the schedule's seconds. */
const OPTIONS = {
  server: text,
  topic: text,
  token: text,
  user: text,
  app: text,
  "bot-token": text,
  chat: text,
  account: text,
  "auth-token": text,
  from: text,
  to: text,
  "needs-you": text,
  finished: text,
  step: text,
};

/** The schedule with what the options change (a timing left out stays as saved). */
function changedSchedule(saved: EscalationSettingsResponse["schedule"], values: Values) {
  const step = seconds(values.step, "step", "never") ?? undefined;
  const timing = (current: EscalationTiming, value: string | undefined, name: string): EscalationTiming => {
    const after = seconds(value, name, "never");
    return {
      afterSeconds: after === undefined ? current.afterSeconds : after,
      stepSeconds: step ?? current.stepSeconds,
    };
  };
  return {
    needsYou: timing(saved.needsYou, values["needs-you"], "needs-you"),
    finished: timing(saved.finished, values.finished, "finished"),
  };
}

/** Tries every rung now and prints what each service answered; exit code 1 when any refused or was unreachable. */
async function testLadder(daemon: LocalDaemon): Promise<void> {
  const answer = await daemon.ask("POST", "/escalation/test", {}, 60_000);
  const parsed = EscalationTestResponse.safeParse(answer?.body);
  if (!parsed.success) {
    const message = (answer?.body as { error?: { message?: string } } | null)?.error?.message;
    throw new StartError(`the daemon did not test the ladder: ${message ?? answer?.status ?? "no answer"}`);
  }
  for (const { rung, answer: rungAnswer } of parsed.data.rungs) {
    process.stdout.write(`${rung}: ${describeAnswer(rungAnswer)}\n`);
  }
  if (
    parsed.data.rungs.some(
      ({ answer: rungAnswer }) => rungAnswer.outcome === "refused" || rungAnswer.outcome === "unreachable",
    )
  ) {
    process.exitCode = 1;
  }
}

export async function run(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, strict: true, allowPositionals: true, options: OPTIONS });
  const daemon = await runningDaemon(process.env);
  const saved = settingsOf(await daemon.ask("GET", "/escalation/settings"));
  const [command, argument] = positionals;
  const save = async (request: PutEscalationSettingsRequest): Promise<void> => {
    process.stdout.write(
      `${describe(settingsOf(await daemon.ask("PUT", "/escalation/settings", request)))}\n`,
    );
  };
  const channels = saved.channels.map(keptChannel);
  switch (command) {
    case undefined:
      process.stdout.write(`${describe(saved)}\n`);
      return;
    case "ntfy":
    case "pushover":
    case "telegram":
    case "twilio":
      return save({ channels: replaced(channels, await givenChannel(command, values)) });
    case "remove":
      if (!channels.some((channel) => channel.kind === argument))
        throw new StartError(`no ${argument ?? "channel"} is set`);
      return save({ channels: channels.filter((channel) => channel.kind !== argument) });
    case "schedule":
      return save({ channels, schedule: changedSchedule(saved.schedule, values) });
    case "idle": {
      const idle = seconds(argument, "idle", "off");
      if (idle === undefined) throw new StartError(`give the seconds, or "off"\n${usage}`);
      return save({ channels, idleAwaySeconds: idle });
    }
    case "test":
      return testLadder(daemon);
    default:
      throw new StartError(`unknown: ringback escalation ${command}\n${usage}`);
  }
}
