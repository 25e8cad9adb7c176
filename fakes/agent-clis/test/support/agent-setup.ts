import { type FakeModel, startFakeModel } from "@ringback/fake-model";
import { type AgentHome, createAgentHome } from "./agent-home.js";
import type { AgentRunContext } from "./agent-runs.js";
import { type OutsideTrap, startOutsideTrap } from "./outside-trap.js";
import { type RingbackDaemon, startRingbackDaemon } from "./ringback-daemon.js";

/** Everything one test runs the agents against, all on 127.0.0.1, removed by `close()`. */
export interface AgentSetup extends AsyncDisposable {
  model: FakeModel;
  home: AgentHome;
  daemon: RingbackDaemon;
  trap: OutsideTrap;
  /** How to run an agent in the project of this home. */
  context: AgentRunContext;
  close(): Promise<void>;
}

/** Starts the fake model, a temporary home configured for it, the proxy trap and the real daemon. */
export async function startAgentSetup(): Promise<AgentSetup> {
  const model = await startFakeModel();
  const trap = await startOutsideTrap();
  const home = await createAgentHome(model.url);
  const env = { ...home.env, ...trap.proxyEnv };
  const daemon = await startRingbackDaemon(home.home, env).catch(async (error: unknown) => {
    await Promise.all([model.close(), trap.close(), home.close()]);
    throw error;
  });
  const close = async () => {
    await daemon.close();
    await Promise.all([model.close(), trap.close()]);
    await home.close();
  };
  return {
    model,
    home,
    daemon,
    trap,
    context: { cwd: home.project, env, modelUrl: model.url },
    close,
    [Symbol.asyncDispose]: close,
  };
}
