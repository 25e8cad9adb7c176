import { basename } from "node:path";
import { PROJECT_NAME_MAX_CHARS, type Report } from "@ringback/protocol";

/**
 * The project a call belongs to, as the person names it in the rules and the fleet shows it: the tracker's project
 * name, else the last part of the agent's working directory. Null when the report names neither.
 */
export function projectOf(report: Pick<Report, "cwd" | "tracker">): string | null {
  const name = report.tracker?.projectName?.trim() || (report.cwd ? basename(report.cwd) : "");
  return name === "" ? null : name.slice(0, PROJECT_NAME_MAX_CHARS);
}
