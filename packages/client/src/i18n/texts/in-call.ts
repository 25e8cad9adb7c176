import { defineTexts } from "../text-sets.js";

/** Texts of in-call questions and of replies after hang-up, beyond the core set. */
export const IN_CALL_TEXTS = defineTexts({
  en: {
    openModelSettings: "Set up the language model",
    closeModelSettings: "Close",
    speechFailed: (problem: string) => `Speech recognition failed (${problem}). Type the question instead.`,
    questionLabel: "Your question",
    replies: "Replies",
    replyLabel: "Reply to this call",
    replyEmpty: "Write a reply first.",
    replySendFailed: (reason: string) => `The reply could not be sent: ${reason}`,
    sentAt: (time: string) => `Sent ${time}`,
  },
  zh: {
    openModelSettings: "设置语言模型",
    closeModelSettings: "关闭",
    speechFailed: (problem: string) => `语音识别失败（${problem}）。请改为输入问题。`,
    questionLabel: "你的问题",
    replies: "回复",
    replyLabel: "回复这个来电",
    replyEmpty: "请先写回复。",
    replySendFailed: (reason: string) => `回复未能发送：${reason}`,
    sentAt: (time: string) => `发送于 ${time}`,
  },
});

export type InCallTexts = (typeof IN_CALL_TEXTS)["en"];
