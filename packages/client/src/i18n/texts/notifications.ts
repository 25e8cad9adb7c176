import { defineTexts } from "../text-sets.js";

/**
 * Texts of the call notifications the service worker shows for a push (the app may be closed). Only this file and
 * the resolver go into the worker's bundle, so it imports nothing but `defineTexts`. A brief's own title and
 * sentence are in the report language and are never translated; these texts frame them.
 */
export const NOTIFICATION_TEXTS = defineTexts({
  en: {
    /** The title of a call whose brief could not be read (offline, another key), or whose brief has no title. */
    genericCallTitle: "Ringback",
    genericCallBody: "Your agent finished. Open Ringback to take the call.",
    /** A call whose tracker project is known: the project, then the brief's title. */
    projectCallTitle: (project: string, title: string) => `${project} · ${title}`,
    /** A call that does not ring: the ring modes forbid it, or this device holds it as missed ("Later" included). */
    missedCallTitle: (title: string) => `Missed call: ${title}`,
    /** The ringing call's action that opens the app on the call, where it is answered. */
    answerAction: "Answer",
    /** The ringing call's action that stops it ringing on this device only; it waits among the missed calls. */
    laterAction: "Later",
  },
  zh: {
    genericCallTitle: "Ringback",
    genericCallBody: "你的智能体已完成工作。打开 Ringback 接听来电。",
    projectCallTitle: (project: string, title: string) => `【${project}】${title}`,
    missedCallTitle: (title: string) => `未接来电：${title}`,
    answerAction: "接听",
    laterAction: "稍后",
  },
});

export type NotificationTexts = (typeof NOTIFICATION_TEXTS)["en"];
