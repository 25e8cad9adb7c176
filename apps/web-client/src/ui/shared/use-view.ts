import { useEffect, useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";

/** The controller's view, re-rendered on every change. */
export function useView(controller: AppController): AppView {
  const [view, setView] = useState(controller.view);
  useEffect(() => controller.subscribe(setView), [controller]);
  return view;
}
