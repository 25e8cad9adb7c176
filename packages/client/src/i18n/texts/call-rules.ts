import { defineTexts } from "../text-sets.js";

/** Texts of Settings › Calls from agents: the gathering window, a choice per project, the quiet summary. */
export const CALL_RULES_TEXTS = defineTexts({
  en: {
    callRules: "Calls from agents",
    callRulesHint:
      "Agents that finish close together make one call. A “needs you” call always rings at once. These rules live on the computer and apply to its agents.",
    gatherSeconds: "Gather finished agents for (seconds; 0: ring each at once)",
    projects: "Projects",
    noProjects: "No project yet: every project rings. Type a project's name to set it.",
    projectRing: "Ring",
    projectRoundUp: "Round-up only",
    projectSilent: "Silent",
    projectRingHint:
      "Round-up only: its calls wait for the next call that rings and are read in its round-up. Silent: they wait for the quiet summary.",
    newProject: "Another project (the tracker project, else the agent's folder name)",
    addProject: "Add",
    quietSummaryAt: "Quiet summary every day at (the computer's time; empty: off)",
    saveRules: "Save rules",
    saved: "Saved.",
  },
  zh: {
    callRules: "来自智能体的来电",
    callRulesHint:
      "相近时间内完成的智能体合并为一次来电。“需要你”的来电总是立即响铃。这些规则保存在电脑上,只作用于它的智能体。",
    gatherSeconds: "汇集完成的智能体的时长(秒;0:每个立即响铃)",
    projects: "项目",
    noProjects: "还没有项目:所有项目都会响铃。输入项目名称即可设置。",
    projectRing: "响铃",
    projectRoundUp: "仅汇总",
    projectSilent: "静音",
    projectRingHint: "仅汇总:它的来电等待下一次响铃的来电,并在其汇总中读出。静音:它们等待安静汇总。",
    newProject: "其他项目(追踪器中的项目,否则为智能体所在文件夹的名称)",
    addProject: "添加",
    quietSummaryAt: "每天安静汇总的时间(电脑的时间;留空:关闭)",
    saveRules: "保存规则",
    saved: "已保存。",
  },
});

export type CallRulesTexts = (typeof CALL_RULES_TEXTS)["en"];
