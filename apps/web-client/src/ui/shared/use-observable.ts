import type { Observable } from "@ringback/client";
import { useEffect, useState } from "preact/hooks";

/**
 * A piece of app state (the app, ring modes, ringtones, a question session), re-rendered on every change; read again
 * when the subscription starts, so a change made between the first render and the effect is not lost.
 */
export function useObservable<View extends object>(observable: Observable<View>): View {
  const [view, setView] = useState(observable.view);
  useEffect(() => {
    setView(observable.view);
    return observable.subscribe(setView);
  }, [observable]);
  return view;
}
