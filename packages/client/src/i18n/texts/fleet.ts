import { defineTexts } from "../text-sets.js";

/** Texts of the fleet card (every computer's agents on the idle screen) and of the round-up's buttons. */
export const FLEET_TEXTS = defineTexts({
  en: {
    fleetTitle: "Your agents",
    fleetEmpty: "No agent has started a turn on your computers.",
    /** A length of time: "12 min", "1 h 5 min". */
    minutes: (minutes: number) => `${minutes} min`,
    hours: (hours: number, minutes: number) => (minutes === 0 ? `${hours} h` : `${hours} h ${minutes} min`),
    working: (duration: string) => `working ${duration}`,
    workingJustStarted: "working, just started",
    needsYou: "needs you",
    finished: (duration: string) => `finished ${duration} ago`,
    finishedJustNow: "finished just now",
    failed: "failed",
    /** What a state says, then the brief's headline. */
    withHeadline: (words: string, headline: string) => `${words} — ${headline}`,
    openCall: "Open the call",
    roundUpAgents: (count: number) => `${count} agents are waiting for you`,
    roundUpPosition: (position: number, count: number) => `${position} of ${count}`,
    roundUpOpening: "Round-up",
    roundUpNext: "Next",
    roundUpSkip: "Skip",
    roundUpAnswer: "Answer",
    roundUpJoined: (project: string) => `${project} joined the round-up`,
    voiceCommands: "Voice commands in a round-up",
    voiceCommandsHint:
      "Say next, skip, answer or repeat during a round-up (uses the browser's speech recognition).",
  },
  zh: {
    fleetTitle: "你的智能体",
    fleetEmpty: "你的电脑上还没有智能体开始工作。",
    minutes: (minutes: number) => `${minutes} 分钟`,
    hours: (hours: number, minutes: number) =>
      minutes === 0 ? `${hours} 小时` : `${hours} 小时 ${minutes} 分钟`,
    working: (duration: string) => `已工作 ${duration}`,
    workingJustStarted: "刚开始工作",
    needsYou: "需要你",
    finished: (duration: string) => `${duration}前完成`,
    finishedJustNow: "刚刚完成",
    failed: "失败",
    withHeadline: (words: string, headline: string) => `${words} — ${headline}`,
    openCall: "打开来电",
    roundUpAgents: (count: number) => `${count} 个智能体在等你`,
    roundUpPosition: (position: number, count: number) => `第 ${position} 个，共 ${count} 个`,
    roundUpOpening: "汇总",
    roundUpNext: "下一个",
    roundUpSkip: "跳过",
    roundUpAnswer: "回应",
    roundUpJoined: (project: string) => `${project} 加入了汇总`,
    voiceCommands: "汇总中的语音指令",
    voiceCommandsHint: "汇总时说“下一个”“跳过”“回应”或“重复”（使用浏览器的语音识别）。",
  },
});
export type FleetTexts = (typeof FLEET_TEXTS)["en"];
