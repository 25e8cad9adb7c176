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
    logTitle: (count: number) => `Recent pushes on this device (${count})`,
    logEmpty: "No push has reached this device yet.",
    stepReceived: "push received",
    stepShown: "rang",
    stepMissed: "shown as a missed call (no ring)",
    stepQuietEnded: "not shown: the call was already over",
    stepQuietAnsweredHere: "not shown: answered on this device",
    stepQuietSettledHere: "not shown: already handled on this device",
    stepQuietSettledElsewhere: "closed: answered or ended on another device",
    stepQuietUnpaired: "not shown: this device is not paired",
    stepFailed: (error: string) => `failed: ${error}`,
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
    logTitle: (count: number) => `本设备最近的推送（${count}）`,
    logEmpty: "还没有推送到达本设备。",
    stepReceived: "收到推送",
    stepShown: "已响铃",
    stepMissed: "显示为未接来电（不响铃）",
    stepQuietEnded: "未显示：来电已结束",
    stepQuietAnsweredHere: "未显示：已在本设备接听",
    stepQuietSettledHere: "未显示：本设备已处理",
    stepQuietSettledElsewhere: "已关闭：已在其他设备接听或结束",
    stepQuietUnpaired: "未显示：本设备未配对",
    stepFailed: (error: string) => `失败：${error}`,
  },
});

/** The repeat choices offered in settings (the relay accepts 15-3600 s). */
export const PUSH_REPEAT_CHOICES_SECONDS = [30, 60, 120, 300] as const;
