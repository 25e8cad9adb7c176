import type { AgentRecord, IssueRecord, ProjectRecord, UserRecord, WorkspaceRecord } from "./records.js";
import type { FakeMulticaState } from "./state.js";

export interface DemoSeed {
  user: UserRecord;
  workspace: WorkspaceRecord;
  project: ProjectRecord;
  agents: AgentRecord[];
  issues: IssueRecord[];
}

/** A demo workspace: one user with a token, a project, two agents (one online, one offline), a few issues. */
export function seedDemo(state: FakeMulticaState, options: { token?: string } = {}): DemoSeed {
  const user = state.addUser({ name: "Demo User", email: "demo@example.test", token: options.token });
  const workspace = state.addWorkspace({ name: "Ringback Demo", slug: "ringback", members: [user.id] });
  const project = state.addProject(workspace.id, {
    title: "Launch",
    status: "in_progress",
    priority: "high",
  });
  state.addProject(workspace.id, { title: "Old website", status: "completed" });
  state.addStatus(workspace.id, { key: "needs_design", name: "Needs design", category: "todo", position: 2 });
  const laptop = state.addRuntime(workspace.id, {
    name: "demo-laptop",
    status: "online",
    provider: "claude",
  });
  const desktop = state.addRuntime(workspace.id, {
    name: "office-desktop",
    status: "offline",
    provider: "codex",
  });
  const agents = [
    state.addAgent(workspace.id, { name: "Claude", runtime_id: laptop.id }),
    state.addAgent(workspace.id, { name: "Codex", runtime_id: desktop.id }),
  ];
  const [claude] = agents as [AgentRecord, AgentRecord];
  const issues = [
    state.addIssue(workspace.id, {
      title: "Write the launch announcement",
      project_id: project.id,
      priority: "high",
    }),
    state.addIssue(workspace.id, {
      title: "Fix the login redirect",
      project_id: project.id,
      priority: "urgent",
      status: "in_progress",
      assignee_type: "agent",
      assignee_id: claude.id,
    }),
    state.addIssue(workspace.id, {
      title: "Pick a pricing page design",
      project_id: project.id,
      status: "needs_design",
      priority: "medium",
    }),
  ];
  state.addComment(issues[1]?.id ?? "", {
    content: "The redirect loops after sign-in on Safari.",
    author_id: user.id,
  });
  return { user, workspace, project, agents, issues };
}
