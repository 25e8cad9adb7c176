import type { DispatchController, DispatchView } from "@ringback/client";
import type { DISPATCH_TEXTS, InterfaceLanguage } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import { RequestProblem } from "./problem-note.js";

type DispatchTexts = (typeof DISPATCH_TEXTS)["en"];

/** Search field limit of `POST /tracker/dispatch/issues` (`query`). */
const QUERY_MAX_CHARS = 200;

/** The comment form's issue choice: search by words or number, a status filter, and the matching issues. */
export function IssuePicker(props: {
  controller: DispatchController;
  view: DispatchView;
  t: DispatchTexts;
  language: InterfaceLanguage;
}) {
  const { controller, view, t, language } = props;
  const { search } = view;
  const [query, setQuery] = useState(search.query);
  const run = (statusFilter = search.statusFilter) => {
    controller.searchIssues(query, statusFilter).catch(() => undefined);
  };
  const toggle = (key: string) =>
    run(
      search.statusFilter.includes(key)
        ? search.statusFilter.filter((k) => k !== key)
        : [...search.statusFilter, key],
    );
  return (
    <fieldset class="issue-picker" data-testid="issue-picker">
      <div class="row">
        <input
          type="search"
          data-testid="issue-search"
          placeholder={t.searchIssues}
          maxLength={QUERY_MAX_CHARS}
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              run();
            }
          }}
        />
        <button type="button" data-testid="issue-search-button" onClick={() => run()}>
          {search.isSearching ? t.searching : t.search}
        </button>
      </div>
      <div class="status-filter" data-testid="status-filter">
        {view.statuses.map((status) => (
          <label key={status.key}>
            <input
              type="checkbox"
              checked={search.statusFilter.includes(status.key)}
              onChange={() => toggle(status.key)}
            />
            {status.name}
          </label>
        ))}
        {search.statusFilter.length === 0 && <span class="hint">{t.anyStatus}</span>}
      </div>
      {search.problem && <RequestProblem problem={search.problem} language={language} t={t} />}
      {search.issues.length === 0 && !search.isSearching ? (
        <p class="empty">{t.noIssues}</p>
      ) : (
        <ul class="issue-list">
          {search.issues.map((issue) => (
            <li key={issue.id}>
              <label>
                <input
                  type="radio"
                  name="dispatch-issue"
                  data-testid="issue-option"
                  checked={view.issueId === issue.id}
                  onChange={() => controller.chooseIssue(issue.id)}
                />
                <span class="identifier">{issue.identifier}</span> {issue.title}{" "}
                <span class="hint">
                  {view.statuses.find((s) => s.key === issue.status)?.name ?? issue.status}
                </span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
