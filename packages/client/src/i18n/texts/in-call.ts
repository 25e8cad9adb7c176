import { defineTexts } from "../text-sets.js";

/** Texts of in-call questions and of replies (in the call and after hang-up), beyond the core set. */
export const IN_CALL_TEXTS = defineTexts({
  en: {
    openModelSettings: "Set up the language model",
    closeModelSettings: "Close",
    speechFailed: (why: string) => `${why} Type the question instead.`,
    questionLabel: "Your question",
    replies: "Replies",
    replyLabel: "Reply to this call",
    replyEmpty: "Write a reply first.",
    replySendFailed: (reason: string) => `The reply could not be sent: ${reason}`,
    sentAt: (time: string) => `Sent ${time}`,
    replyTitle: "Reply to the agent",
    replyInCallHint:
      "Type it or tap Speak, then Send: it goes to the agent on your computer, which carries on with it. The call goes on.",
    replyAsCommentHint:
      "Type it or tap Speak, then Send: it is posted as your comment on the issue, and the agent carries on with it. The call goes on.",
    replyAsCommentPlaceholder: "Your reply is posted as a comment on the issue",
    replySpeechFailed: (why: string) => `${why} Type the reply instead.`,
    replyNotRecognised: "Nothing was recognised. Try again or type the reply.",
    agentReport: "The agent's report",
    noBrief: "No brief was written for this call: the agent's own report is read.",
    noBriefBecause: (reason: string) =>
      `No brief was written for this call (${reason}): the agent's own report is read.`,
  },
  zh: {
    openModelSettings: "设置语言模型",
    closeModelSettings: "关闭",
    speechFailed: (why: string) => `${why}请改为输入问题。`,
    questionLabel: "你的问题",
    replies: "回复",
    replyLabel: "回复这个来电",
    replyEmpty: "请先写回复。",
    replySendFailed: (reason: string) => `回复未能发送：${reason}`,
    sentAt: (time: string) => `发送于 ${time}`,
    replyTitle: "回复智能体",
    replyInCallHint: "输入回复或点「说话」，然后发送：它会发给你电脑上的智能体，让它继续工作。通话不会中断。",
    replyAsCommentHint:
      "输入回复或点「说话」，然后发送：它会作为你的评论发到该议题上，智能体会据此继续工作。通话不会中断。",
    replyAsCommentPlaceholder: "你的回复会作为评论发到该议题上",
    replySpeechFailed: (why: string) => `${why}请改为输入回复。`,
    replyNotRecognised: "没有识别到内容。请重试或直接输入回复。",
    agentReport: "智能体的报告",
    noBrief: "这次来电没有生成简报：朗读的是智能体自己的报告。",
    noBriefBecause: (reason: string) => `这次来电没有生成简报（${reason}）：朗读的是智能体自己的报告。`,
  },
});

export type InCallTexts = (typeof IN_CALL_TEXTS)["en"];
