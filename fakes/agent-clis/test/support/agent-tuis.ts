import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentHome } from "./agent-home.js";
import { type AgentRunContext, CLAUDE_API_KEY, claudeEnv } from "./agent-runs.js";
import { claudeCommand, codexCommand } from "./installed-bins.js";
import { ASK } from "./scripted-ask.js";
import { TmuxScreen, type TmuxScreenOptions } from "./tmux-screen.js";

/** What both full-screen agents show under their prompt once they take input. */
const READY_TEXT = "? for shortcuts";

/** A full-screen agent, and what its screen says at each step of a permission ask (observed, PERMISSION-HOOKS.md). */
export interface AgentTui {
  kind: "claude-code" | "codex";
  /** Starts the full-screen agent in the project under tmux, past its first-run screens, ready for a prompt. */
  start(home: AgentHome, context: AgentRunContext): Promise<TmuxScreen>;
  /** On the screen while our PermissionRequest hook waits for the phone. */
  whileTheHookWaits: string;
  /** The agent's own approval dialog. */
  ownDialog: string;
  /** The key that answers "yes" in that dialog. */
  yesKey: string;
  /** The transcript once the hook's allow let the command run. */
  ranOnTheHooksAllow: string;
  /** Hosts the agent reaches for at every start that no setting turns off (the proxy trap refuses them). */
  unavoidableOutsideHosts: readonly string[];
}

/** Claude Code's dialog, shown at once, while the hook runs: the hook and the person race. */
const CLAUDE_DIALOG = "Do you want to proceed?";

/**
 * `claude --permission-mode default` (the full-screen form defaults to `auto`, which offline never asks; see
 * PERMISSION-HOOKS.md). `~/.claude.json` holds what its first run asks once: onboarding done (else it checks that
 * api.anthropic.com answers and exits), the API key from the environment approved (by its last 20 characters), the
 * project's folder trusted.
 */
export const CLAUDE_TUI: AgentTui = {
  kind: "claude-code",
  async start(home, context) {
    const firstRunDone = {
      hasCompletedOnboarding: true,
      customApiKeyResponses: { approved: [CLAUDE_API_KEY.slice(-20)], rejected: [] },
      projects: { [home.project]: { hasTrustDialogAccepted: true } },
    };
    writeFileSync(join(home.home, ".claude.json"), `${JSON.stringify(firstRunDone, null, 2)}\n`);
    const { command, args } = claudeCommand();
    return startReady({
      commandLine: { command, args: [...args, "--permission-mode", "default"] },
      cwd: home.project,
      // Its start would fetch the official plugin marketplace (downloads.claude.ai, then github.com) and check for
      // updates; the proxy trap caught them.
      env: {
        ...claudeEnv(context),
        CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
        DISABLE_AUTOUPDATER: "1",
      },
      configDir: home.home,
    });
  },
  whileTheHookWaits: CLAUDE_DIALOG,
  ownDialog: CLAUDE_DIALOG,
  yesKey: "1",
  ranOnTheHooksAllow: "Allowed by PermissionRequest hook",
  unavoidableOutsideHosts: [],
};

/**
 * `codex -a on-request -s workspace-write`: a command in the project runs without asking, one that asks to run
 * outside the sandbox asks (the hook first). With both flags given it does not ask whether to trust the folder;
 * `check_for_update_on_startup=false` keeps it from asking api.github.com for a newer release.
 */
export const CODEX_TUI: AgentTui = {
  kind: "codex",
  async start(home, context) {
    const { command, args } = codexCommand();
    const flags = ["-a", "on-request", "-s", "workspace-write", "-c", "check_for_update_on_startup=false"];
    return startReady({
      commandLine: { command, args: [...args, ...flags] },
      cwd: home.project,
      env: context.env,
      configDir: home.home,
    });
  },
  // Codex holds its dialog back until the hook has answered.
  whileTheHookWaits: "Running hook",
  ownDialog: "Would you like to run the following command?",
  yesKey: "y",
  ranOnTheHooksAllow: `Ran ${ASK.command}`,
  // Its start-up tip (openai/codex's announcement_tip.toml), fetched at every start with no setting to stop it.
  unavoidableOutsideHosts: ["raw.githubusercontent.com:443"],
};

async function startReady(options: TmuxScreenOptions): Promise<TmuxScreen> {
  const screen = await TmuxScreen.start(options);
  try {
    await screen.waitFor(READY_TEXT, "the prompt");
    return screen;
  } catch (error) {
    await screen.close();
    throw error;
  }
}

/** Puts the prompt in the agent's input and sends it. */
export async function sendPrompt(screen: TmuxScreen, prompt: string): Promise<void> {
  await screen.paste(prompt);
  await screen.press("Enter");
}
