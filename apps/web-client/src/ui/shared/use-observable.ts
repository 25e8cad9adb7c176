import { useEffect, useState } from "preact/hooks";
import type { Observable } from "../../app/controller/observable.js";

/** A piece of app state (ring modes, ringtones, a question session), re-rendered on every change. */
export function useObservable<View extends object>(observable: Observable<View>): View {
  const [view, setView] = useState(observable.view);
  useEffect(() => {
    setView(observable.view);
    return observable.subscribe(setView);
  }, [observable]);
  return view;
}
