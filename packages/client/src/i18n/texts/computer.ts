import { defineTexts } from "../text-sets.js";

/** Texts of Settings › Your computer: which computer, its tracker, its language model, and the encryption key. */
export const COMPUTER_TEXTS = defineTexts({
  en: {
    save: "Save",
    saving: "Saving…",
    saved: "Saved.",
    cancel: "Cancel",
    retry: "Try again",
    loading: "Loading…",
    removed: "Removed.",

    // Computer choice
    computer: "Your computer",
    computerHint:
      "Tracker, language model and report language are settings of the computer running the Ringback daemon; this device reaches it through the relay, sealed end to end.",
    computerOnline: "online",
    computerOffline: "offline",
    lastSeen: (time: string) => `last seen ${time}`,
    computerChosen: "This device talks to this computer.",
    chooseComputer: "Talk to this computer",
    noComputer:
      "No computer has joined this account yet. Under Devices, choose “Add a device” and copy the link, then on your computer run:",
    noComputerCommand: "ringback login '<pairing link>'",
    refreshComputers: "Refresh",

    // Tracker
    tracker: "Tracker (Multica)",
    trackerHint:
      "Your computer watches these workspaces and calls when an agent's task finishes. The computer must be on for tracker tasks to call.",
    trackerNotSet: "Not set up: no token is saved on your computer.",
    trackerToken: "Tracker token",
    trackerTokenHint: "Stored only on your computer; this app shows only a masked hint afterwards.",
    validateToken: "Check the token",
    validating: "Checking…",
    savedToken: (hint: string) => `Token: ${hint}`,
    newToken: "Use another token",
    chooseWorkspaces: "Workspaces to watch",
    noWorkspacesAccessible: "This token can access no workspace.",
    changeWorkspaces: "Change workspaces",
    removeTracker: "Remove the token",
    removeTrackerConfirm: "Remove the tracker token from your computer? It stops watching every workspace.",
    watchedWorkspaces: "Watched workspaces",
    stateConnected: "connected",
    stateConnecting: "connecting",
    stateDisconnected: "disconnected",
    stateError: (reason: string) => `error: ${reason}`,
    noStatusYet: "no status yet",

    // Language model for briefs
    computerModel: "Language model for briefs",
    computerModelHint:
      "Your computer writes each brief with this OpenAI-compatible model. The key stays on your computer.",
    computerModelNotSet: "Not set up: briefs fail and calls read the original report.",
    baseUrl: "Address (base URL)",
    model: "Model",
    apiKey: "Key",
    apiKeyKept: (hint: string) => `${hint} (empty keeps it)`,
    structuredOutput: "Structured output",
    structuredJsonSchema: "JSON schema (json_schema)",
    structuredJsonObject: "JSON object (json_object)",
    savedModel: (model: string, hint: string) => `Saved: ${model}, key ${hint}`,
    removeModel: "Remove",
    removeModelConfirm: "Remove the language model from your computer? Briefs fail until one is set.",
    testModel: "Test the connection",
    testingModel: "Testing…",
    testModelHint:
      "Tests what is typed above without saving it; an empty key uses the one saved on your computer.",
    modelWorks: (model: string, latencyMs: number) => `Works: ${model}, ${latencyMs} ms`,
    modelFails: (reason: string) => `Does not work: ${reason}`,
    limitsTitle: "Limits",
    limitsHint:
      "How long your computer waits for the model on each brief, and how long its answer may be. A model on your computer or home network gets more time by default than a hosted one.",
    timeoutLimit: "Overall limit per brief, in seconds",
    noProgressLimit: "Give up when no word comes for, in seconds",
    useDefaultLimit: (seconds: string, local: boolean) =>
      `Use the default: ${seconds} s for ${local ? "a model on your computer or network" : "a hosted model"}`,
    outputCapLimit: "Output cap per answer, in tokens",
    outputCapDefault: (local: boolean): string => (local ? "sized to each report" : "none"),
    useDefaultOutputCap: (local: boolean) =>
      `Use the default: ${local ? "sized to each report for a model on your computer or network" : "none for a hosted model"}`,
    modelSpeeds: (prompt: string, output: string) =>
      `It reads ${prompt} prompt tokens/s and writes ${output} tokens/s.`,
    modelSpeedsUnknown:
      "Its speed could not be measured (it did not stream its answer), so how long a report's brief takes is not known.",
    testedLimits: (overall: string, noProgress: string) =>
      `Tested with an overall limit of ${overall} s, giving up after ${noProgress} s without a word.`,
    reportTime: (long: boolean, lines: number, seconds: string | null, limit: string, fits: boolean | null) =>
      `${long ? "A long report" : "A typical report"} (about ${lines} lines): ${
        seconds === null ? "time not known" : `about ${seconds} s`
      }${fits === false ? `, too long for the ${limit} s limit` : fits === true ? `, within the ${limit} s limit` : ""}.`,
    adviceRaiseTimeout: (long: boolean, seconds: string) =>
      `${long ? "A long report" : "A typical report"} would not finish in time: set the overall limit to at least ${seconds} s, or choose a smaller or faster model.`,
    adviceFasterModel: (long: boolean, needed: string) =>
      `${long ? "A long report" : "A typical report"} needs about ${needed} s, more than the longest limit (1 hour): choose a smaller or faster model.`,
    useSuggestedTimeout: (seconds: string) => `Set the overall limit to ${seconds} s`,
    reportsFit: "Both fit the limits.",

    // Encryption
    encryption: "Encryption",
    encryptionHint:
      "Calls and replies are sealed with a key derived from this phrase. Every device and your computer need the same phrase.",
    encryptionPhrase: "Key (a phrase of at least 12 characters)",
    changeKey: "Use this key",
    derivingKey: "Deriving the key…",
    checkKey: "Check my computer's key",
    checkingKey: "Checking…",
    keyMatches: "Your computer uses the same key.",
    keyDiffers:
      "Your computer uses another key. Set the same phrase on your computer: run `ringback key` there (its key can be changed only on the computer itself).",
    keyOffline: "Your computer is offline: whether it uses the same key is not known yet.",
    keyNoComputer: "No computer has joined this account: set the same phrase when it joins.",

    // Problems
    problemNoComputer: "No computer has joined this account yet.",
    problemComputerOffline: "Your computer is offline (its Ringback daemon is not connected to the relay).",
    problemKeyDiffers:
      "Your computer uses another encryption key than this device: set the same phrase on both (Encryption below).",
    problemNotRelayed: "This setting can only be changed on the computer itself.",
    problemRelayUnreachable: "The relay could not be reached. Check your connection.",
    problemInvalidTrackerToken: "The tracker token is not valid.",
    problemTrackerNotConfigured: "No tracker token is saved on your computer: enter one.",
    problemWorkspaceNotFound: "A chosen workspace was not found with this token.",
    problemTrackerUnavailable: "Your computer could not reach the tracker.",
    problemInvalidLlmSettings: "Your computer did not accept these language-model settings.",
    problemLlmKeyRequired: "A key is required: none is saved on your computer.",
    problemTokenRequired: "Enter the tracker token.",
    problemNoWorkspace: "Choose at least one workspace.",
    problemModelIncomplete: "Fill in the address and the model (and a key the first time).",
    problemModelAddress: "The address must start with http:// or https://.",
    problemModelLimit: "Each time limit is a number of seconds from 1 to 3600.",
    problemModelOutputCap: "The output cap is a whole number of tokens from 256 to 32768.",
    problemPhraseTooShort: "The phrase needs at least 12 characters.",
    problemOther: (reason: string) => `Your computer could not do it: ${reason}`,
  },
  zh: {
    save: "保存",
    saving: "正在保存…",
    saved: "已保存。",
    cancel: "取消",
    retry: "重试",
    loading: "加载中…",
    removed: "已移除。",

    computer: "你的电脑",
    computerHint:
      "任务追踪器、语言模型和报告语言是运行 Ringback 守护进程的电脑上的设置；本设备经中继服务器端到端加密地访问它。",
    computerOnline: "在线",
    computerOffline: "离线",
    lastSeen: (time: string) => `最近在线 ${time}`,
    computerChosen: "本设备与这台电脑通信。",
    chooseComputer: "与这台电脑通信",
    noComputer: "还没有电脑加入这个账户。在「设备」中选择「添加设备」并复制链接，然后在电脑上运行：",
    noComputerCommand: "ringback login '<配对链接>'",
    refreshComputers: "刷新",

    tracker: "任务追踪器（Multica）",
    trackerHint: "你的电脑会关注这些工作区，智能体的任务完成时给你来电。电脑必须开着，追踪器任务才能来电。",
    trackerNotSet: "未设置：电脑上没有保存令牌。",
    trackerToken: "追踪器令牌",
    trackerTokenHint: "只保存在你的电脑上；之后本应用只显示打码后的提示。",
    validateToken: "检查令牌",
    validating: "正在检查…",
    savedToken: (hint: string) => `令牌：${hint}`,
    newToken: "换一个令牌",
    chooseWorkspaces: "要关注的工作区",
    noWorkspacesAccessible: "这个令牌无法访问任何工作区。",
    changeWorkspaces: "更改工作区",
    removeTracker: "移除令牌",
    removeTrackerConfirm: "从你的电脑上移除追踪器令牌？它将停止关注所有工作区。",
    watchedWorkspaces: "正在关注的工作区",
    stateConnected: "已连接",
    stateConnecting: "正在连接",
    stateDisconnected: "未连接",
    stateError: (reason: string) => `出错：${reason}`,
    noStatusYet: "暂无状态",

    computerModel: "写简报用的语言模型",
    computerModelHint: "你的电脑用这个 OpenAI 兼容模型撰写每份简报。密钥只保存在你的电脑上。",
    computerModelNotSet: "未设置：简报会失败，来电时朗读原始报告。",
    baseUrl: "地址（base URL）",
    model: "模型",
    apiKey: "密钥",
    apiKeyKept: (hint: string) => `${hint}（留空则保留）`,
    structuredOutput: "结构化输出",
    structuredJsonSchema: "JSON 模式（json_schema）",
    structuredJsonObject: "JSON 对象（json_object）",
    savedModel: (model: string, hint: string) => `已保存：${model}，密钥 ${hint}`,
    removeModel: "移除",
    removeModelConfirm: "从你的电脑上移除语言模型？在重新设置之前简报都会失败。",
    testModel: "测试连接",
    testingModel: "正在测试…",
    testModelHint: "测试上面填写的内容，不会保存；密钥留空则使用电脑上保存的密钥。",
    modelWorks: (model: string, latencyMs: number) => `可用：${model}，${latencyMs} 毫秒`,
    modelFails: (reason: string) => `不可用：${reason}`,
    limitsTitle: "限制",
    limitsHint:
      "你的电脑为每份简报等待模型的时间，以及模型回答的最大长度。默认情况下，你电脑上或家庭网络中的模型比托管模型有更多时间。",
    timeoutLimit: "每份简报的总时限（秒）",
    noProgressLimit: "多久没有输出就放弃（秒）",
    useDefaultLimit: (seconds: string, local: boolean) =>
      `使用默认值：${local ? "你电脑上或网络中的模型" : "托管模型"}为 ${seconds} 秒`,
    outputCapLimit: "每次回答的输出上限（词元）",
    outputCapDefault: (local: boolean): string => (local ? "按每份报告调整" : "不限"),
    useDefaultOutputCap: (local: boolean) =>
      `使用默认值：${local ? "你电脑上或网络中的模型按每份报告调整" : "托管模型不限"}`,
    modelSpeeds: (prompt: string, output: string) =>
      `它每秒读取 ${prompt} 个提示词元，每秒写出 ${output} 个词元。`,
    modelSpeedsUnknown: "无法测出它的速度（它没有以流式返回答案），因此不知道一份报告的简报需要多久。",
    testedLimits: (overall: string, noProgress: string) =>
      `测试使用的总时限为 ${overall} 秒，${noProgress} 秒没有输出即放弃。`,
    reportTime: (long: boolean, lines: number, seconds: string | null, limit: string, fits: boolean | null) =>
      `${long ? "长报告" : "普通报告"}（约 ${lines} 行）：${seconds === null ? "时间未知" : `约 ${seconds} 秒`}${
        fits === false ? `，超过 ${limit} 秒的时限` : fits === true ? `，在 ${limit} 秒的时限内` : ""
      }。`,
    adviceRaiseTimeout: (long: boolean, seconds: string) =>
      `${long ? "长报告" : "普通报告"}无法按时完成：请把总时限设为至少 ${seconds} 秒，或换一个更小或更快的模型。`,
    adviceFasterModel: (long: boolean, needed: string) =>
      `${long ? "长报告" : "普通报告"}大约需要 ${needed} 秒，超过最长时限（1 小时）：请换一个更小或更快的模型。`,
    useSuggestedTimeout: (seconds: string) => `把总时限设为 ${seconds} 秒`,
    reportsFit: "两种报告都在时限内。",

    encryption: "加密",
    encryptionHint: "来电和回复用由这个口令生成的密钥加密。所有设备和你的电脑都需要相同的口令。",
    encryptionPhrase: "密钥（至少 12 个字符的口令）",
    changeKey: "使用这个密钥",
    derivingKey: "正在生成密钥…",
    checkKey: "检查电脑的密钥",
    checkingKey: "正在检查…",
    keyMatches: "你的电脑使用相同的密钥。",
    keyDiffers:
      "你的电脑使用另一个密钥。请在电脑上运行 `ringback key` 设置相同的口令（它的密钥只能在电脑本机更改）。",
    keyOffline: "你的电脑离线：暂时无法确认它是否使用相同的密钥。",
    keyNoComputer: "还没有电脑加入这个账户：电脑加入时请设置相同的口令。",

    problemNoComputer: "还没有电脑加入这个账户。",
    problemComputerOffline: "你的电脑离线（它的 Ringback 守护进程没有连接到中继服务器）。",
    problemKeyDiffers: "你的电脑使用的加密密钥与本设备不同：请在两边设置相同的口令（见下方「加密」）。",
    problemNotRelayed: "这项设置只能在电脑本机上修改。",
    problemRelayUnreachable: "无法连接中继服务器。请检查网络。",
    problemInvalidTrackerToken: "追踪器令牌无效。",
    problemTrackerNotConfigured: "电脑上没有保存追踪器令牌：请输入一个。",
    problemWorkspaceNotFound: "用这个令牌找不到所选的某个工作区。",
    problemTrackerUnavailable: "你的电脑无法连接任务追踪器。",
    problemInvalidLlmSettings: "你的电脑不接受这些语言模型设置。",
    problemLlmKeyRequired: "需要密钥：电脑上没有保存密钥。",
    problemTokenRequired: "请输入追踪器令牌。",
    problemNoWorkspace: "请至少选择一个工作区。",
    problemModelIncomplete: "请填写地址和模型（第一次还需要密钥）。",
    problemModelAddress: "地址必须以 http:// 或 https:// 开头。",
    problemModelLimit: "每个时间限制都必须是 1 到 3600 之间的秒数。",
    problemModelOutputCap: "输出上限必须是 256 到 32768 之间的整数（词元）。",
    problemPhraseTooShort: "口令至少需要 12 个字符。",
    problemOther: (reason: string) => `你的电脑未能完成：${reason}`,
  },
});

export type ComputerTexts = (typeof COMPUTER_TEXTS)["en"];
