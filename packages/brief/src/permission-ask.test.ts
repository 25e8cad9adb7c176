import { describe, expect, it } from "vitest";
import { briefInWords } from "./brief-in-words.js";
import { describePermissionAsk, type PermissionAskFacts } from "./permission-ask.js";

const base: PermissionAskFacts = {
  agent: "claude-code",
  toolName: "Bash",
  toolInput: { command: "rm -rf build && npm run build", description: "Rebuild from scratch" },
  lastWords: "The build folder is stale. I will clear it and build again.",
  cwd: "/home/ada/projects/website",
  shortened: [],
};

describe("describePermissionAsk", () => {
  it("names the agent, the project, the exact command with its description, and the last words", () => {
    const words = describePermissionAsk(base);

    expect(words.title).toBe("Claude Code needs you: run a command");
    expect(words.spoken).toContain("Claude Code is waiting for your permission in the project website.");
    expect(words.spoken).toContain("It asks to run this command: rm -rf build && npm run build");
    expect(words.spoken).toContain("It describes it as: Rebuild from scratch");
    expect(words.spoken).toContain(
      "Before asking, it said: The build folder is stale. I will clear it and build again.",
    );
    expect(words.card).toEqual({ title: "The command", body: "rm -rf build && npm run build" });
  });

  it("names Codex and takes a command given as its argument list", () => {
    const words = describePermissionAsk({
      ...base,
      agent: "codex",
      toolInput: { command: ["git", "push", "--force"] },
      cwd: "C:\\Users\\ada\\api\\",
    });

    expect(words.title).toBe("Codex needs you: run a command");
    expect(words.spoken).toContain("in the project api.");
    expect(words.spoken).not.toContain("describes it");
    expect(words.card.body).toBe("git push --force");
  });

  it("says the file an edit changes", () => {
    for (const toolName of ["Edit", "MultiEdit"]) {
      const words = describePermissionAsk({
        ...base,
        toolName,
        toolInput: { file_path: "/home/ada/projects/website/src/app.ts", old_string: "a", new_string: "b" },
      });

      expect(words.title).toBe("Claude Code needs you: edit a file");
      expect(words.spoken).toContain("It asks to edit the file /home/ada/projects/website/src/app.ts");
      expect(words.card).toEqual({ title: "The file", body: "/home/ada/projects/website/src/app.ts" });
    }
  });

  it("says the notebook an edit changes", () => {
    const words = describePermissionAsk({
      ...base,
      toolName: "NotebookEdit",
      toolInput: { notebook_path: "/data/analysis.ipynb", new_source: "print(1)" },
    });

    expect(words.card).toEqual({ title: "The file", body: "/data/analysis.ipynb" });
  });

  it("says the file a write creates and how many lines it writes", () => {
    const words = describePermissionAsk({
      ...base,
      toolName: "Write",
      toolInput: { file_path: "/tmp/notes.md", content: "# Notes\n\nfirst\nsecond\n" },
    });

    expect(words.title).toBe("Claude Code needs you: write a file");
    expect(words.spoken).toContain("It asks to write 4 lines to the file /tmp/notes.md");
    expect(
      describePermissionAsk({ ...base, toolName: "Write", toolInput: { file_path: "/a", content: "x" } })
        .spoken,
    ).toContain("write 1 line to");
  });

  it("says the address a fetch opens", () => {
    const url = "https://example.com/docs?page=2";
    const words = describePermissionAsk({
      ...base,
      toolName: "WebFetch",
      toolInput: { url, prompt: "read" },
    });

    expect(words.title).toBe("Claude Code needs you: open a web address");
    expect(words.spoken).toContain(`It asks to fetch this address: ${url}`);
    expect(words.card).toEqual({ title: "The address", body: url });
  });

  it("gives any other tool's name and its whole input as JSON", () => {
    const toolInput = { query: "orders", limit: 5 };
    const words = describePermissionAsk({ ...base, toolName: "mcp__db__query", toolInput });
    const json = JSON.stringify(toolInput, null, 2);

    expect(words.title).toBe("Claude Code needs you: use mcp__db__query");
    expect(words.spoken).toContain(`It asks to use the tool mcp__db__query with this input: ${json}`);
    expect(words.card).toEqual({ title: "The tool mcp__db__query", body: json });
  });

  it("treats a known tool without its expected field as any other tool", () => {
    const words = describePermissionAsk({ ...base, toolName: "Bash", toolInput: { script: "ls" } });

    expect(words.card.title).toBe("The tool Bash");
    expect(words.card.body).toContain('"script": "ls"');
  });

  it("keeps the whole of long last words and a long command", () => {
    const lastWords = `${"I checked every file. ".repeat(400)}Done.`;
    const command = `echo ${"x".repeat(5000)}`;
    const words = describePermissionAsk({ ...base, lastWords, toolInput: { command } });

    expect(words.spoken).toContain(lastWords.trim());
    expect(words.card.body).toBe(command);
  });

  it("says when the agent said nothing before asking", () => {
    expect(describePermissionAsk({ ...base, lastWords: null }).spoken).toContain(
      "It said nothing before asking.",
    );
    expect(describePermissionAsk({ ...base, lastWords: "  " }).spoken).toContain(
      "It said nothing before asking.",
    );
  });

  it("says which part was shortened, and says nothing of it when nothing was", () => {
    const whole = describePermissionAsk(base).spoken;
    const both = describePermissionAsk({ ...base, shortened: ["toolInput", "lastWords"] }).spoken;
    const lastWordsOnly = describePermissionAsk({ ...base, shortened: ["lastWords"] }).spoken;

    expect(whole).not.toContain("shortened");
    expect(both).toContain("its input was shortened");
    expect(both).toContain("Its last words were too long to send whole");
    expect(lastWordsOnly).not.toContain("its input was shortened");
    expect(lastWordsOnly).toContain("Its last words were too long to send whole");
  });
});

describe("describePermissionAsk in the brief language", () => {
  it("says the ask in Chinese for any zh tag, the command and last words untouched", () => {
    const words = describePermissionAsk({ ...base, language: "zh-Hans-CN" });
    expect(words.language).toBe("zh-Hans-CN");
    expect(words.title).toBe("Claude Code 需要你：运行命令");
    expect(words.spoken).toContain("Claude Code 正在项目 website 中等待你的许可。");
    expect(words.spoken).toContain("它请求运行这条命令：rm -rf build && npm run build");
    expect(words.spoken).toContain(
      "提出请求之前，它说：The build folder is stale. I will clear it and build again.",
    );
    expect(words.card).toEqual({ title: "命令", body: "rm -rf build && npm run build" });
    const write = describePermissionAsk({
      ...base,
      language: "zh-TW",
      toolName: "Write",
      toolInput: { file_path: "/a/b.ts", content: "x\ny\n" },
      lastWords: null,
      shortened: ["toolInput"],
    });
    expect(write.spoken).toContain("它请求向文件 /a/b.ts 写入 2 行");
    expect(write.spoken).toContain("它在提出请求之前什么也没说。");
    expect(write.spoken).toContain("请求太长，无法完整发送：它的输入被截短了。");
  });

  it("says it in English, tagged English, for a language without Ringback's sentences", () => {
    const words = describePermissionAsk({ ...base, language: "de-DE" });
    expect(words.language).toBe("en-US");
    expect(words.title).toBe("Claude Code needs you: run a command");
    expect(describePermissionAsk(base).language).toBe("en-US");
  });
});

describe("briefInWords", () => {
  it("makes a generated brief of the words, whole, with no model call", () => {
    const words = describePermissionAsk({
      agent: "codex",
      toolName: "Bash",
      toolInput: { command: "rm -rf build" },
      lastWords: null,
      cwd: "/home/ada/shop-api",
      shortened: [],
    });
    const at = new Date("2026-11-26T10:00:00.000Z");
    const brief = briefInWords(words, "en-US", at);
    expect(brief).toMatchObject({ title: words.title, spoken: words.spoken, cards: [words.card] });
    expect(brief).toMatchObject({ openQuestions: [], criticalFacts: [], supplementary: null });
    expect(brief.meta).toEqual({
      status: "generated",
      llmCalls: 0,
      model: null,
      language: "en-US",
      error: null,
      generatedAt: "2026-11-26T10:00:00.000Z",
    });
  });
});
