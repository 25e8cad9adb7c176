import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTemporaryDirectory } from "@ringback/test-kit";

/** Variables a child may inherit from the test's environment; everything else is left out. */
const INHERITED = ["PATH", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "LOGNAME"];

export interface AgentHome extends AsyncDisposable {
  /** The temporary `HOME`. */
  home: string;
  /** `$HOME/.codex`, Codex's home (`CODEX_HOME`). */
  codexHome: string;
  /** Where the agents work: the session's and thread's cwd. */
  project: string;
  /** The environment every child gets: this home, no `RINGBACK_*`, `MULTICA_*` or agent variables of ours. */
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

/**
 * A temporary home as a new user has it, with a project directory and Codex configured for the fake model's
 * Responses API (and kept from calling home). Built from a short list of inherited variables, so that a developer's `RINGBACK_HOME`,
 * `MULTICA_TASK_ID` (which silences the hook) or a surrounding agent session cannot leak in.
 */
export async function createAgentHome(modelUrl: string): Promise<AgentHome> {
  const directory = await makeTemporaryDirectory("ringback-agent-clis-");
  // realpath: the agents report a resolved cwd (macOS's /var is /private/var).
  const home = realpathSync(directory.path);
  const codexHome = join(home, ".codex");
  const project = join(home, "shop-api");
  mkdirSync(codexHome, { recursive: true });
  mkdirSync(project, { recursive: true });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      'model = "fake-model"',
      'model_provider = "ringback-fake"',
      "",
      "[model_providers.ringback-fake]",
      'name = "Ringback fake model"',
      `base_url = "${modelUrl}"`,
      'wire_api = "responses"',
      "",
      // Codex 0.169.0 otherwise syncs its curated plugins (github.com, chatgpt.com) and exports metrics
      // (ab.chatgpt.com) at every start, whatever the model provider; the proxy trap caught both.
      "[features]",
      "plugins = false",
      "",
      "[analytics]",
      "enabled = false",
      "",
    ].join("\n"),
  );
  const env: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, { HOME: home, CODEX_HOME: codexHome, SHELL: "/bin/sh" });
  return { home, codexHome, project, env, close: directory.remove, [Symbol.asyncDispose]: directory.remove };
}
