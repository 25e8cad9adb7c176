import { defineTexts } from "../text-sets.js";

/**
 * Why the device's language model or a voice engine failed (`ModelProblem`, `VoiceProblem`), one text per kind. A
 * provider's own words (`said`) are put in as they came; an engine's error code is worded, never shown.
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
    voiceEngineFailed: "This device's voice stopped. Tap Resume to try again, or read the brief here.",
    voiceEngineBusy: "Another app is using the sound. Close it, then tap Resume.",
    voiceEngineNetwork:
      "This device's voice needs the network and could not reach it. Check the connection, then tap Resume.",
    voiceEngineNoLanguage:
      "This device has no voice for the brief's language. Read the brief here, or choose another voice in Settings.",
    voiceNoPlatform: "No speech platform is set up.",
    voicePlatformUnreachable: (address: string) => `The speech platform at ${address} could not be reached.`,
    voicePlatformStatus: (status: number) => `The speech platform answered ${status}.`,
    voiceAudioUnplayable: "The speech audio could not be played.",
    voiceAudioRefused: "The browser has not let this page speak yet. Tap Resume to start the voice.",
    hearingNothing: "Nothing was heard.",
    hearingNoMicrophone: "No microphone was found.",
    hearingNotAllowed: "The microphone is not allowed for this page (the browser's site settings allow it).",
    hearingNetwork: "Speech recognition needs the network, which could not be reached.",
    hearingNoLanguage: "Speech recognition does not know the brief's language.",
    hearingFailed: "Speech recognition stopped.",
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
    voiceEngineFailed: "本设备的语音停止了。请点「继续」重试，或直接阅读简报。",
    voiceEngineBusy: "另一个应用正在使用声音。请关闭它，然后点「继续」。",
    voiceEngineNetwork: "本设备的语音需要网络，但无法连接。请检查网络，然后点「继续」。",
    voiceEngineNoLanguage: "本设备没有简报语言的语音。请直接阅读简报，或在设置中选择其他语音。",
    voiceNoPlatform: "尚未设置语音平台。",
    voicePlatformUnreachable: (address: string) => `无法连接位于 ${address} 的语音平台。`,
    voicePlatformStatus: (status: number) => `语音平台返回了错误（${status}）。`,
    voiceAudioUnplayable: "语音音频无法播放。",
    voiceAudioRefused: "浏览器还不允许此页面发声。请点「继续」开始朗读。",
    hearingNothing: "没有听到声音。",
    hearingNoMicrophone: "没有找到麦克风。",
    hearingNotAllowed: "此页面不允许使用麦克风（可在浏览器的网站设置中允许）。",
    hearingNetwork: "语音识别需要网络，但无法连接。",
    hearingNoLanguage: "语音识别不支持简报的语言。",
    hearingFailed: "语音识别停止了。",
    voiceNone: "本设备没有可用的语音：简报以文字显示。",
  },
});

export type ProblemTexts = (typeof PROBLEM_TEXTS)["en"];
