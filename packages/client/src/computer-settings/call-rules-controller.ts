import type { CallRules, ProjectRing } from "@ringback/protocol";
import type { CallRecord } from "../calls/call-record.js";
import { Observable } from "../controller/observable.js";
import type { DaemonClient } from "../daemon/daemon-client.js";
import { type ComputerProblem, computerProblemOf } from "./computer-problem.js";

/** The relayed daemon requests of Settings › Calls from agents. */
export type CallRulesClient = Pick<DaemonClient, "callRules" | "saveCallRules">;

export interface CallRulesView {
  /** Null until the computer answered. */
  readonly rules: CallRules | null;
  readonly busy: "loading" | "saving" | null;
  readonly problem: ComputerProblem | null;
  readonly notice: "saved" | null;
}

/**
 * The project of a call as the computer's rules name it: the tracker's project, else the last folder of the
 * agent's working directory (the daemon's `projectOf`).
 */
export function callProject(record: Pick<CallRecord, "payload">): string | null {
  const { report } = record.payload;
  const tracked = report.tracker?.projectName?.trim();
  if (tracked) return tracked;
  const cwd = report.cwd?.replace(/[\\/]+$/, "");
  return cwd ? cwd.split(/[\\/]/).pop() || null : null;
}

/** The projects a rule can be set for: those of the calls this device knows and those with a rule, sorted. */
export function ruleProjects(
  records: readonly Pick<CallRecord, "payload">[],
  rules: CallRules | null,
): string[] {
  const names = new Set(Object.keys(rules?.projects ?? {}));
  for (const record of records) {
    const project = callProject(record);
    if (project) names.add(project);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** The rules with `project` set to `ring` (no entry: what every other project does), `round-up` or `silent`. */
export function withProjectRing(rules: CallRules, project: string, ring: ProjectRing): CallRules {
  const { [project]: _previous, ...others } = rules.projects;
  return { ...rules, projects: ring === "ring" ? others : { ...others, [project]: ring } };
}

/**
 * The computer's rules for finished calls (relayed `GET/PUT /call-rules`): the gathering window, a choice per
 * project, and the daily quiet summary.
 */
export class CallRulesController extends Observable<CallRulesView> {
  constructor(private readonly client: () => Promise<CallRulesClient>) {
    super({ rules: null, busy: null, problem: null, notice: null });
  }

  load(): Promise<boolean> {
    return this.#run("loading", async (client) => {
      this.update({ rules: await client.callRules() });
    });
  }

  save(rules: CallRules): Promise<boolean> {
    return this.#run("saving", async (client) => {
      this.update({ rules: await client.saveCallRules(rules), notice: "saved" });
    });
  }

  async #run(busy: NonNullable<CallRulesView["busy"]>, action: (client: CallRulesClient) => Promise<void>) {
    this.update({ busy, problem: null, notice: null });
    try {
      await action(await this.client());
      return true;
    } catch (error) {
      this.update({ problem: computerProblemOf(error) });
      return false;
    } finally {
      this.update({ busy: null });
    }
  }
}
