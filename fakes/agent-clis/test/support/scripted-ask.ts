import { existsSync } from "node:fs";
import { join } from "node:path";
import { answers } from "@ringback/fake-model";
import type { AgentSetup } from "./agent-setup.js";

const COMMAND = "touch allowed.txt";

/** The "needs you" proofs' ask: what the agent is told, what the fake model makes it ask to run, and after. */
export const ASK = {
  prompt: `RUN: ${COMMAND}`,
  command: COMMAND,
  /** The file the command creates: there only if the command ran. */
  marker: "allowed.txt",
  /** What the fake model says before its tool call: the call's "last words". */
  lastWords: "I'll create the marker file.",
  /** The reason a deny gives. */
  denyReason: "Not on the release branch, please: ask me tomorrow.",
  /** How the fake model's final answer starts: it quotes the tool's result. */
  finalAnswerStart: "Tool result:",
} as const;

/**
 * The fake model for `RUN: touch allowed.txt`: it says its last words and calls the agent's shell tool once, then
 * quotes the tool's result as the final answer ("Tool result: …"). Every other call (a title, the brief of the
 * turn's report) gets the echo.
 */
export function scriptTheAsk(setup: AgentSetup): void {
  setup.model.setDefaultAnswer(
    answers.shellFromPrompt({ say: ASK.lastWords, description: "Create the marker file" }),
  );
}

export const markerExists = (setup: AgentSetup) => existsSync(join(setup.home.project, ASK.marker));
