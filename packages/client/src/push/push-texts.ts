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
    turningOn: "Turning on…",
    stepAskingPermission: "Waiting for you to allow notifications…",
    stepSubscribing: (seconds: number) =>
      `Subscribing with the browser's push service (at most ${seconds} s)…`,
    stepRegistering: (seconds: number) => `Registering this device at the relay (at most ${seconds} s)…`,
    problemPushServiceTimeout: (seconds: number) =>
      `Not turned on: the browser's push service did not answer within ${seconds} s, so this device cannot ring while the app is closed. Check that it is online and that nothing blocks the browser's push service (a firewall, a VPN, a privacy setting or a content blocker), then tap Turn on again. Until then, calls ring while the app is open.`,
    problemPushServiceRefused: (reason: string) =>
      `Not turned on: the browser's push service refused (${reason}). Tap Turn on again later; if it keeps failing, use another browser for ringing while the app is closed. Until then, calls ring while the app is open.`,
    problemRelayTimeout: (seconds: number) =>
      `Not turned on: the relay did not confirm the subscription within ${seconds} s. Check the connection, then tap Turn on again.`,
    problemNoServiceWorker:
      "Not turned on: the app's service worker is not running yet, so nothing here can receive a push. Reload the page, then tap Turn on again.",
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
    stepLate: (step: string) => `then, late: ${step}`,
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
    turningOn: "正在开启…",
    stepAskingPermission: "等待你允许通知…",
    stepSubscribing: (seconds: number) => `正在向浏览器的推送服务订阅（最多 ${seconds} 秒）…`,
    stepRegistering: (seconds: number) => `正在向中继服务器登记本设备（最多 ${seconds} 秒）…`,
    problemPushServiceTimeout: (seconds: number) =>
      `未能开启：浏览器的推送服务在 ${seconds} 秒内没有响应，因此应用关闭时本设备无法响铃。请确认设备已联网，且没有东西阻挡浏览器的推送服务（防火墙、VPN、隐私设置或内容拦截器），然后再点「开启」。在此之前，应用打开时来电照常响铃。`,
    problemPushServiceRefused: (reason: string) =>
      `未能开启：浏览器的推送服务拒绝了订阅（${reason}）。请稍后再点「开启」；如果一直失败，请换一个浏览器来接收应用关闭时的来电。在此之前，应用打开时来电照常响铃。`,
    problemRelayTimeout: (seconds: number) =>
      `未能开启：中继服务器在 ${seconds} 秒内没有确认订阅。请检查网络，然后再点「开启」。`,
    problemNoServiceWorker:
      "未能开启：应用的 Service Worker 还没有运行，因此无法接收推送。请刷新页面，然后再点「开启」。",
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
    stepLate: (step: string) => `随后（迟到）：${step}`,
  },
});

export type PushTexts = (typeof PUSH_TEXTS)["en"];

/** The repeat choices offered in settings (the relay accepts 15-3600 s). */
export const PUSH_REPEAT_CHOICES_SECONDS = [30, 60, 120, 300] as const;
