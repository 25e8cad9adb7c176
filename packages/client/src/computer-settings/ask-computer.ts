import { type ComputerProblem, computerProblemOf } from "./computer-problem.js";

/** How a settings screen's view changes around one request to the computer. */
type RequestChange<Start> = Start | { readonly problem: ComputerProblem } | { readonly busy: null };

/**
 * Asks the chosen computer with the screen busy meanwhile (`start` says what it is doing and clears what the last
 * request left): a failure becomes the view's problem instead of being thrown, and the screen is free again
 * afterwards. True when the request worked.
 */
export async function askComputer<Client, Start extends { readonly busy: string; readonly problem: null }>(
  update: (change: RequestChange<Start>) => void,
  start: Start,
  client: () => Promise<Client>,
  action: (client: Client) => Promise<void>,
): Promise<boolean> {
  update(start);
  try {
    await action(await client());
    return true;
  } catch (error) {
    update({ problem: computerProblemOf(error) });
    return false;
  } finally {
    update({ busy: null });
  }
}
