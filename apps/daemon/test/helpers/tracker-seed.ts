import type { FakeMultica } from "@ringback/fake-multica";

type TrackerState = FakeMultica["state"];
type Workspace = ReturnType<TrackerState["addWorkspace"]>;
type Agent = ReturnType<TrackerState["addAgent"]>;
type Project = ReturnType<TrackerState["addProject"]>;

/** An issue of `project` the agent works, in progress, with its running task. */
export function addIssueAtWork(
  state: TrackerState,
  at: { workspace: Workspace; agent: Agent; project: Project },
  title: string,
) {
  const issue = state.addIssue(at.workspace.id, {
    title,
    assignee_type: "agent",
    assignee_id: at.agent.id,
    project_id: at.project.id,
    status: "in_progress",
  });
  const task = state.addTask({ agent_id: at.agent.id, issue_id: issue.id, status: "running" });
  return { issue, task };
}

/** A user "Ada" in workspace "Ringback", where the agent "Claude" (its runtime online) works on project "Website". */
export function seedAgentAtWork(fake: FakeMultica) {
  const { state } = fake;
  const user = state.addUser({ name: "Ada" });
  const workspace = state.addWorkspace({ name: "Ringback", slug: "ringback", members: [user.id] });
  const runtime = state.addRuntime(workspace.id, { status: "online" });
  const agent = state.addAgent(workspace.id, { name: "Claude", runtime_id: runtime.id });
  const project = state.addProject(workspace.id, { title: "Website", status: "in_progress" });
  const issueAtWork = (title: string) => addIssueAtWork(state, { workspace, agent, project }, title);
  return { state, user, workspace, agent, project, issueAtWork };
}
