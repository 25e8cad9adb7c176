import { startFakeMultica } from "../src/index.js";

/** A fake Multica with a user, their workspace and an agent on a runtime in it; closed at dispose. */
export async function seeded() {
  const fake = await startFakeMultica();
  const user = fake.state.addUser();
  const workspace = fake.state.addWorkspace({ name: "Ringback", members: [user.id] });
  const runtime = fake.state.addRuntime(workspace.id);
  const agent = fake.state.addAgent(workspace.id, { name: "Claude", runtime_id: runtime.id });
  return { fake, user, workspace, agent, [Symbol.asyncDispose]: () => fake.close() };
}
