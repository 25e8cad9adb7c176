import { parseArgs } from "node:util";
import { CallRules, ProjectRing, TimeOfDay } from "@ringback/protocol";
import { runningDaemon } from "../../runtime/doctor/local-daemon.js";
import { StartError } from "../../runtime/start-error.js";

export const summary =
  "when finished calls ring: the gathering window, a choice per project, the quiet summary";
export const usage = `ringback rules [set|project|quiet-summary]

  ringback rules                          the rules as they are
  ringback rules set --gather SECONDS     agents finishing within this many seconds of the first make one call
                                          (default 20; 0 rings each call as soon as its brief is written)
  ringback rules project NAME ring|round-up|silent
                                          ring: the project's finished calls ring (the default); round-up: they
                                          wait for the next call that rings and are read in its round-up; silent:
                                          they wait for the quiet summary. NAME is the tracker project, else the
                                          agent's folder name
  ringback rules quiet-summary HH:MM|off  at this time each day (this computer's clock) the calls still waiting
                                          ring as one round-up
A "needs you" call always rings at once. Talks to the running daemon (ringback run).`;

const PROJECT_WORDS: Record<ProjectRing, string> = {
  ring: "rings",
  "round-up": "waits for the next round-up",
  silent: "waits for the quiet summary",
};

/** The rules in plain lines, as `ringback rules` prints them. */
export function describeRules(rules: CallRules): string {
  const window =
    rules.gatherSeconds === 0
      ? "gathering window: off (each finished call rings as soon as its brief is written)"
      : `gathering window: ${rules.gatherSeconds} s (finished calls within it make one call)`;
  const projects = Object.entries(rules.projects).map(
    ([name, ring]) => `  ${name}: ${ring} (${PROJECT_WORDS[ring]})`,
  );
  return [
    window,
    "projects:",
    ...(projects.length > 0 ? projects : ["  (none: every project rings)"]),
    `quiet summary: ${rules.quietSummaryAt ?? "off"}`,
  ].join("\n");
}

function rulesOf(answer: { status: number; body: unknown } | null): CallRules {
  if (!answer) throw new StartError("the daemon is not running: ringback run");
  const parsed = CallRules.safeParse(answer.body);
  if (answer.status === 200 && parsed.success) return parsed.data;
  const message = (answer.body as { error?: { message?: string } } | null)?.error?.message;
  throw new StartError(`the daemon refused: ${message ?? `HTTP ${answer.status}`}`);
}

/** The rules after the command, or null for the command that only shows them. */
function changed(rules: CallRules, positionals: string[], gather: string | undefined): CallRules | null {
  const [command, first, second] = positionals;
  switch (command) {
    case undefined:
      return null;
    case "set": {
      const seconds = Number(gather);
      if (gather === undefined || !Number.isInteger(seconds) || seconds < 0)
        throw new StartError("ringback rules set --gather takes whole seconds (0 turns the window off)");
      return { ...rules, gatherSeconds: seconds };
    }
    case "project": {
      const ring = ProjectRing.safeParse(second);
      if (!first || !ring.success)
        throw new StartError(`ringback rules project NAME ring|round-up|silent\n${usage}`);
      const { [first]: _previous, ...others } = rules.projects;
      // "ring" is what every project without a rule does: it needs no entry.
      return { ...rules, projects: ring.data === "ring" ? others : { ...others, [first]: ring.data } };
    }
    case "quiet-summary": {
      if (first === "off") return { ...rules, quietSummaryAt: null };
      if (!TimeOfDay.safeParse(first).success)
        throw new StartError("ringback rules quiet-summary takes a time HH:MM (such as 18:30) or off");
      return { ...rules, quietSummaryAt: first ?? null };
    }
    default:
      throw new StartError(`unknown rules command: ${command}\n${usage}`);
  }
}

export async function run(args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { gather: { type: "string" } },
  });
  const daemon = await runningDaemon(process.env);
  const saved = rulesOf(await daemon.ask("GET", "/call-rules"));
  const next = changed(saved, positionals, values.gather);
  const shown = next === null ? saved : rulesOf(await daemon.ask("PUT", "/call-rules", next));
  process.stdout.write(`${describeRules(shown)}\n`);
}
