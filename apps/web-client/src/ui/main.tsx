import "../shared/zod-without-eval.js";
import { callIdOfAddress, createMemoryStore, hasPairingFragment } from "@ringback/client";
import { render } from "preact";
import { createCallNotifier } from "../app/audio/call-notifications.js";
import { createWebAudioRinger } from "../app/audio/ringer.js";
import { appBadge } from "../app/badge/app-badge.js";
import { AppController } from "../app/controller/app-controller.js";
import { createIdbStore } from "../app/storage/idb-key-value.js";
import { createBrowserSpeech } from "../app/voice/browser-speech.js";
import { createSpeechInput, type RecognitionScope } from "../app/voice/speech-input.js";
import { App } from "./app.js";
import { registerServiceWorker } from "./register-service-worker.js";
import "./tokens.css";
import "./styles.css";

const href = location.href;
// The pairing link's key must not stay in the address bar or the history; the controller keeps it in memory.
if (hasPairingFragment(href)) history.replaceState(null, "", location.pathname + location.search);
// A clicked notification opened this window at `#call=<eventId>` (the service worker's `openWindow`).
const callToOpen = callIdOfAddress(href);
if (callToOpen !== null) history.replaceState(null, "", location.pathname + location.search);

const controller = new AppController({
  store: typeof indexedDB === "undefined" ? createMemoryStore() : createIdbStore(),
  voice: createBrowserSpeech(),
  ringer: createWebAudioRinger(),
  waitingRinger: createWebAudioRinger(),
  notifier: createCallNotifier(),
  href,
  userAgent: navigator.userAgent,
  preferredLanguages: navigator.languages,
  isPageHidden: () => document.hidden,
  navigate: (url) => location.assign(url),
  setBadge: appBadge(navigator),
  speechInput: () => createSpeechInput(window as RecognitionScope),
});

render(<App controller={controller} />, document.getElementById("app")!);
// The page's language follows the interface texts (screen readers, and the fonts browsers pick for Chinese).
controller.subscribe((view) => {
  document.documentElement.lang = view.interfaceLanguage === "zh" ? "zh-CN" : "en";
});
// Browsers allow sound after the first interaction with the page; whatever it is, take it.
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => controller.sound.unlock().catch(() => undefined), {
    once: true,
    capture: true,
  });
}
if (callToOpen !== null) controller.openCall(callToOpen);
// A clicked notification while this window was open: the service worker focuses it and names the call.
navigator.serviceWorker?.addEventListener("message", (event: MessageEvent) => {
  const data = event.data as { type?: unknown; eventId?: unknown } | null;
  if (typeof data?.eventId !== "string") return;
  if (data.type === "ringback-open-call") controller.openCall(data.eventId);
  // "Later" on a notification while this window is open: the worker stored the call missed; so does this page.
  if (data.type === "ringback-call-set-aside" && controller.view.phase === "ready")
    controller.calls.setAside(data.eventId);
});
controller.start().catch((error: unknown) => console.error("Ringback could not start.", error));
registerServiceWorker();
