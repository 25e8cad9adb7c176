import { defineTexts } from "../text-sets.js";

/**
 * Why the device's language model or a voice engine failed (`ModelProblem`, `VoiceProblem`), one text per kind. A
 * provider's own words (`said`) and an engine's error code are put in as they came; only the frame is translated.
 */
export const PROBLEM_TEXTS = defineTexts({
  en: {
    modelUnreachable: (address: string) => `The language model at ${address} could not be reached.`,
    modelStatus: (status: number) => `The language model answered ${status}.`,
    modelStatusSaid: (status: number, said: string) => `The language model answered ${status}: ${said}`,
    modelNoContent: "The language model's answer has no content.",
    modelNoBody: "The language model's answer has no body.",
    modelStreamNotJson: "The model's stream is not made of JSON chunks.",
    modelFailedMidAnswer: "The model failed mid-answer.",
    modelFailedMidAnswerSaid: (said: string) => `The model failed mid-answer: ${said}`,
    modelAnswerCutOff: "The language model's answer was cut off.",
    modelNotAModelList: "The answer is not a list of models.",
    voiceNoSynthesis: "This browser has no speech synthesis.",
    voiceEngineFailed: (code: string) => `The speech engine failed (${code}).`,
    voiceNoPlatform: "No speech platform is set up.",
    voicePlatformUnreachable: (address: string) => `The speech platform at ${address} could not be reached.`,
    voicePlatformStatus: (status: number) => `The speech platform answered ${status}.`,
    voiceAudioUnplayable: "The speech audio could not be played.",
    voiceAudioRefused: (code: string) => `The browser would not play the speech audio (${code}).`,
    voiceNone: "No voice is available on this device: the brief is shown as text.",
  },
  zh: {
    modelUnreachable: (address: string) => `无法连接位于 ${address} 的语言模型。`,
    modelStatus: (status: number) => `模型返回了错误（${status}）。`,
    modelStatusSaid: (status: number, said: string) => `模型返回了错误（${status}）：${said}`,
    modelNoContent: "语言模型的回答没有内容。",
    modelNoBody: "语言模型的回答是空的。",
    modelStreamNotJson: "模型的流式回答不是 JSON 数据块。",
    modelFailedMidAnswer: "模型在回答途中出错。",
    modelFailedMidAnswerSaid: (said: string) => `模型在回答途中出错：${said}`,
    modelAnswerCutOff: "语言模型的回答中途断开了。",
    modelNotAModelList: "该地址的回答不是模型列表。",
    voiceNoSynthesis: "此浏览器没有语音合成功能。",
    voiceEngineFailed: (code: string) => `语音引擎出错（${code}）。`,
    voiceNoPlatform: "尚未设置语音平台。",
    voicePlatformUnreachable: (address: string) => `无法连接位于 ${address} 的语音平台。`,
    voicePlatformStatus: (status: number) => `语音平台返回了错误（${status}）。`,
    voiceAudioUnplayable: "语音音频无法播放。",
    voiceAudioRefused: (code: string) => `浏览器不允许播放语音音频（${code}）。`,
    voiceNone: "本设备没有可用的语音：简报以文字显示。",
  },
});

export type ProblemTexts = (typeof PROBLEM_TEXTS)["en"];
