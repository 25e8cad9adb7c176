import { defineTexts } from "../i18n/text-sets.js";

/** Settings › Ring when the app is closed. */
export const PUSH_TEXTS = defineTexts({
  en: {
    title: "Ring when the app is closed",
    hint: "Notifications (Web Push) ring this device for calls while the app is closed. The relay never sees what a call says.",
    on: "On",
    off: "Off",
    turnOn: "Turn on",
    turnOff: "Turn off",
    denied: "Notifications are blocked for this site: allow them in the browser's site settings.",
    unsupported: "This browser cannot receive notifications while the app is closed.",
    repeat: "Ring again while unanswered",
    repeatEvery: (seconds: number) => (seconds < 60 ? `every ${seconds} s` : `every ${seconds / 60} min`),
  },
  zh: {
    title: "应用关闭时也响铃",
    hint: "通过通知（Web Push）在应用关闭时让本设备响铃。中继服务器看不到来电内容。",
    on: "已开启",
    off: "已关闭",
    turnOn: "开启",
    turnOff: "关闭",
    denied: "此网站的通知已被阻止：请在浏览器的网站设置中允许。",
    unsupported: "此浏览器不能在应用关闭时接收通知。",
    repeat: "未接听时再次响铃",
    repeatEvery: (seconds: number) => (seconds < 60 ? `每 ${seconds} 秒` : `每 ${seconds / 60} 分钟`),
  },
});

/** The repeat choices offered in settings (the relay accepts 15-3600 s). */
export const PUSH_REPEAT_CHOICES_SECONDS = [30, 60, 120, 300] as const;
