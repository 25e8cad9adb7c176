import { describe, expect, it } from "vitest";
import { describeTrackerQuestion, type TrackerQuestionFacts } from "./tracker-question.js";

const base: TrackerQuestionFacts = {
  trigger: "mention",
  agentName: "Claude",
  issueIdentifier: "RING-12",
  issueTitle: "Move the login page",
  question:
    "[@Ada](mention://member/6f1c2d3e-0000-4000-8000-000000000001) should the old page redirect, or go?",
};

describe("describeTrackerQuestion", () => {
  it("names the agent and the issue and reads the question whole, a mention said as its name", () => {
    const words = describeTrackerQuestion(base);

    expect(words.title).toBe("Claude needs you on RING-12");
    expect(words.spoken).toContain('Claude asks you a question on RING-12 "Move the login page".');
    expect(words.spoken).toContain("It wrote: @Ada should the old page redirect, or go?");
    expect(words.spoken).toContain("Your reply will be posted as a comment on the issue.");
    expect(words.card).toEqual({ title: "The question", body: "@Ada should the old page redirect, or go?" });
  });

  it("says a move to blocked, with the agent's last comment", () => {
    const words = describeTrackerQuestion({
      ...base,
      trigger: "blocked",
      question: "I need the staging password.",
    });

    expect(words.spoken).toContain(
      'Claude moved RING-12 "Move the login page" to blocked: it needs you to go on.',
    );
    expect(words.spoken).toContain("Its last comment says: I need the staging password.");
    expect(words.card).toEqual({ title: "Its last comment", body: "I need the staging password." });
  });

  it("says when the agent wrote nothing, and names an unknown agent plainly", () => {
    const words = describeTrackerQuestion({ ...base, trigger: "blocked", agentName: "", question: "  " });

    expect(words.title).toBe("The agent needs you on RING-12");
    expect(words.spoken).toContain("It wrote nothing with it.");
  });

  it("keeps a long question whole", () => {
    const question = `${"Which of these should I keep? ".repeat(400)}Tell me.`;
    const words = describeTrackerQuestion({ ...base, question });

    expect(words.spoken).toContain(question.trim());
    expect(words.card.body).toBe(question.trim());
  });

  it("is said in Chinese for a Chinese brief language, and in English, tagged English, for any other", () => {
    const chinese = describeTrackerQuestion({
      ...base,
      trigger: "blocked",
      question: "需要预发布环境的密码。",
      language: "zh-CN",
    });
    expect(chinese.language).toBe("zh-CN");
    expect(chinese.title).toBe("Claude 在 RING-12 上需要你");
    expect(chinese.spoken).toContain(
      'Claude 把 RING-12 "Move the login page" 移到了受阻：它需要你才能继续。',
    );
    expect(chinese.spoken).toContain("它最后的评论是：需要预发布环境的密码。");
    expect(chinese.card).toEqual({ title: "它最后的评论", body: "需要预发布环境的密码。" });

    const french = describeTrackerQuestion({ ...base, language: "fr-FR" });
    expect(french.language).toBe("en-US");
    expect(french.title).toBe("Claude needs you on RING-12");
  });
});
