import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS } from "@ringback/client/texts";
import { ALL_TAB, type CallsGroup, callsPageView, missedIdsInTab } from "@ringback/client/views";
import { useEffect, useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { texts } from "../shared/use-texts.js";
import { CallRow } from "./call-row.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
}

/** The calls page: tabs per tracker project plus "all", missed calls on top with acknowledge-all, history below. */
export function CallsPage({ controller, view }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const [requestedTab, setTab] = useState(ALL_TAB);
  useEffect(() => {
    controller.calls.refreshIssues().catch(() => undefined);
  }, [controller]);
  const page = callsPageView(Object.values(view.calls.records), requestedTab);
  const isAll = page.tab === ALL_TAB;
  const missedCount = page.missed.reduce((sum, group) => sum + group.calls.length, 0);
  return (
    <section class="calls-page" data-testid="calls-page">
      <div class="tabs" role="tablist">
        {page.tabs.map((tab) => (
          <button
            type="button"
            role="tab"
            key={tab.key}
            aria-selected={tab.key === page.tab}
            data-testid="calls-tab"
            onClick={() => setTab(tab.key)}
          >
            {tab.project ? tab.project.name : t.tabAll}
          </button>
        ))}
      </div>

      <header class="list-header">
        <h2>{t.missed}</h2>
        <button
          type="button"
          data-testid="acknowledge-all"
          disabled={missedCount === 0}
          onClick={() =>
            controller.calls.acknowledgeAll(
              missedIdsInTab(Object.values(controller.view.calls.records), page.tab),
            )
          }
        >
          {t.acknowledgeAll}
        </button>
      </header>
      {missedCount === 0 ? (
        <p class="empty">{t.noMissedCalls}</p>
      ) : (
        <Groups
          controller={controller}
          groups={page.missed}
          kind="missed"
          isAll={isAll}
          language={view.interfaceLanguage}
        />
      )}

      <header class="list-header">
        <h2>{t.history}</h2>
      </header>
      {page.history.length === 0 ? (
        <p class="empty">{t.noCallsYet}</p>
      ) : (
        <Groups
          controller={controller}
          groups={page.history}
          kind="history"
          isAll={isAll}
          language={view.interfaceLanguage}
        />
      )}
    </section>
  );
}

function Groups(props: {
  controller: AppController;
  groups: readonly CallsGroup[];
  kind: "missed" | "history";
  isAll: boolean;
  language: InterfaceLanguage;
}) {
  const t = texts(CORE_TEXTS, props.language);
  return (
    <div class="groups">
      {props.groups.map((group) => (
        <div class="group" key={group.project?.key ?? "other"}>
          {props.isAll && <h3>{group.project ? group.project.name : t.otherGroup}</h3>}
          <ul>
            {group.calls.map((record) => (
              <CallRow
                key={record.eventId}
                controller={props.controller}
                record={record}
                kind={props.kind}
                language={props.language}
              />
            ))}
          </ul>
        </div>
      ))}
    </div>
  );
}
