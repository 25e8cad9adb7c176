import { DISPATCH_TEXTS } from "@ringback/client/texts";
import { useEffect } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { CallingScreen } from "./calling-screen.js";
import { DispatchForm } from "./dispatch-form.js";
import { MyDispatches } from "./my-dispatches.js";
import "./dispatch.css";

/** The dispatch page: the form, or the calling screen after a dispatch; "my dispatches" below. */
export function DispatchPage({ controller, view }: { controller: AppController; view: AppView }) {
  const dispatch = controller.dispatch;
  const state = useObservable(dispatch);
  const t = texts(DISPATCH_TEXTS, view.interfaceLanguage);
  useEffect(() => {
    dispatch.open().catch(() => undefined);
    dispatch.refreshDispatches().catch(() => undefined);
    return () => dispatch.close();
  }, [dispatch]);
  const isCalling = state.stage !== "compose" && state.stage !== "sending";
  // Without a tracker there is nothing to dispatch to: say what to set up instead of showing a form that cannot work.
  if (state.availability === "tracker-not-configured" && !isCalling) {
    return (
      <section class="dispatch-page" data-testid="dispatch-screen">
        <h1>{t.title}</h1>
        <div class="setup-needed" data-testid="dispatch-setup-needed">
          <h2>{t.setupNeededTitle}</h2>
          <p>{t.setupNeededBody}</p>
          <button type="button" data-testid="dispatch-retry" onClick={() => dispatch.refresh()}>
            {t.setupNeededCheck}
          </button>
        </div>
        <MyDispatches controller={dispatch} view={state} t={t} language={view.interfaceLanguage} />
      </section>
    );
  }
  return (
    <section class="dispatch-page" data-testid="dispatch-screen">
      <h1>{t.title}</h1>
      {isCalling ? (
        <CallingScreen controller={dispatch} view={state} t={t} language={view.interfaceLanguage} />
      ) : (
        <DispatchForm controller={dispatch} view={state} t={t} language={view.interfaceLanguage} />
      )}
      <MyDispatches controller={dispatch} view={state} t={t} language={view.interfaceLanguage} />
    </section>
  );
}
