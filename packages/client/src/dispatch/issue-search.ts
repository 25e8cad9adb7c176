import type { DispatchIssue } from "@ringback/protocol";
import type { DispatchClient } from "./dispatch-daemon.js";
import { type DispatchProblem, dispatchProblem } from "./dispatch-problem.js";

export interface IssueSearchView {
  readonly query: string;
  /** Status keys to keep; empty: any status. */
  readonly statusFilter: readonly string[];
  readonly issues: readonly DispatchIssue[];
  readonly isSearching: boolean;
  readonly problem: DispatchProblem | null;
}

export interface IssueSearchInput {
  readonly projectId: string;
  readonly query: string;
  readonly statusFilter: readonly string[];
  readonly workspaceId: string | null;
}

const EMPTY: IssueSearchView = { query: "", statusFilter: [], issues: [], isSearching: false, problem: null };

/**
 * The comment form's issue search (`POST /tracker/dispatch/issues`): by words or number, in the chosen statuses.
 * Only the newest search's answer is shown, so a slow answer to older words never replaces a newer list.
 */
export class IssueSearch {
  #view: IssueSearchView = EMPTY;
  #turn = 0;

  constructor(private readonly onChange: (view: IssueSearchView) => void) {}

  async search(client: Pick<DispatchClient, "dispatchIssues">, input: IssueSearchInput): Promise<void> {
    this.#turn += 1;
    const turn = this.#turn;
    this.#set({ query: input.query, statusFilter: input.statusFilter, isSearching: true, problem: null });
    try {
      const query = input.query.trim();
      const { issues } = await client.dispatchIssues({
        projectId: input.projectId,
        ...(query ? { query } : {}),
        ...(input.statusFilter.length > 0 ? { statuses: [...input.statusFilter] } : {}),
        ...(input.workspaceId ? { workspaceId: input.workspaceId } : {}),
      });
      if (turn === this.#turn) this.#set({ issues, isSearching: false });
    } catch (error) {
      if (turn === this.#turn) this.#set({ isSearching: false, problem: dispatchProblem(error) });
    }
  }

  clear(): void {
    this.#turn += 1;
    this.#set(EMPTY);
  }

  #set(change: Partial<IssueSearchView>): void {
    this.#view = { ...this.#view, ...change };
    this.onChange(this.#view);
  }
}
