import type { PermissionShortened } from "@ringback/protocol";
import { sentencesFor } from "./said-language.js";

/** The sentences of a "needs you" call, in one language. */
export interface AskPhrases {
  readonly title: (agent: string, verb: string) => string;
  readonly waiting: (agent: string, project: string) => string;
  readonly lastWords: (words: string) => string;
  readonly saidNothing: string;
  readonly shortened: Record<PermissionShortened, string>;
  readonly runVerb: string;
  readonly runSentence: (command: string) => string;
  readonly describedAs: (description: string) => string;
  readonly commandCard: string;
  readonly writeVerb: string;
  readonly writeSentence: (lines: number, path: string) => string;
  readonly editVerb: string;
  readonly editSentence: (path: string) => string;
  readonly fileCard: string;
  readonly fetchVerb: string;
  readonly fetchSentence: (url: string) => string;
  readonly addressCard: string;
  readonly toolVerb: (tool: string) => string;
  readonly toolSentence: (tool: string, json: string) => string;
  readonly toolCard: (tool: string) => string;
}

const ENGLISH: AskPhrases = {
  title: (agent, verb) => `${agent} needs you: ${verb}`,
  waiting: (agent, project) => `${agent} is waiting for your permission in the project ${project}.`,
  lastWords: (words) => `Before asking, it said: ${words}`,
  saidNothing: "It said nothing before asking.",
  shortened: {
    toolInput: "The request was too long to send whole: its input was shortened.",
    lastWords: "Its last words were too long to send whole: they were shortened.",
  },
  runVerb: "run a command",
  runSentence: (command) => `It asks to run this command: ${command}`,
  describedAs: (description) => `It describes it as: ${description}`,
  commandCard: "The command",
  writeVerb: "write a file",
  writeSentence: (lines, path) =>
    `It asks to write ${lines} ${lines === 1 ? "line" : "lines"} to the file ${path}`,
  editVerb: "edit a file",
  editSentence: (path) => `It asks to edit the file ${path}`,
  fileCard: "The file",
  fetchVerb: "open a web address",
  fetchSentence: (url) => `It asks to fetch this address: ${url}`,
  addressCard: "The address",
  toolVerb: (tool) => `use ${tool}`,
  toolSentence: (tool, json) => `It asks to use the tool ${tool} with this input: ${json}`,
  toolCard: (tool) => `The tool ${tool}`,
};

const CHINESE: AskPhrases = {
  title: (agent, verb) => `${agent} 需要你：${verb}`,
  waiting: (agent, project) => `${agent} 正在项目 ${project} 中等待你的许可。`,
  lastWords: (words) => `提出请求之前，它说：${words}`,
  saidNothing: "它在提出请求之前什么也没说。",
  shortened: {
    toolInput: "请求太长，无法完整发送：它的输入被截短了。",
    lastWords: "它最后说的话太长，无法完整发送：已被截短。",
  },
  runVerb: "运行命令",
  runSentence: (command) => `它请求运行这条命令：${command}`,
  describedAs: (description) => `它的说明是：${description}`,
  commandCard: "命令",
  writeVerb: "写入文件",
  writeSentence: (lines, path) => `它请求向文件 ${path} 写入 ${lines} 行`,
  editVerb: "编辑文件",
  editSentence: (path) => `它请求编辑文件 ${path}`,
  fileCard: "文件",
  fetchVerb: "打开网址",
  fetchSentence: (url) => `它请求获取这个地址：${url}`,
  addressCard: "地址",
  toolVerb: (tool) => `使用 ${tool}`,
  toolSentence: (tool, json) => `它请求使用工具 ${tool}，输入如下：${json}`,
  toolCard: (tool) => `工具 ${tool}`,
};

/** The sentences of an ask for a brief language, and the language they are in. */
export function askPhrasesFor(language: string | undefined): { phrases: AskPhrases; language: string } {
  const said = sentencesFor(language, { en: ENGLISH, zh: CHINESE });
  return { phrases: said.sentences, language: said.language };
}
