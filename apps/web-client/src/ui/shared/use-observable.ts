import type { Observable } from "@ringback/client";
import { useEffect, useState } from "preact/hooks";

/** A piece of app state (ring modes, ringtones, a question session), re-rendered on every change. */
export function useObservable<View extends object>(observable: Observable<View>): View {
  const [view, setView] = useState(observable.view);
  useEffect(() => {
    setView(observable.view);
    return observable.subscribe(setView);
  }, [observable]);
  return view;
}
