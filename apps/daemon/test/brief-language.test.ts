import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";
import { errorCode } from "./helpers/responses.js";

let daemon: InProcessDaemon;

afterEach(async () => {
  await daemon.close();
});

describe("/brief/language", () => {
  it("follows the computer's language (source system) until the app sets one", async () => {
    daemon = await startInProcessDaemon({ env: { LC_ALL: "pt_BR.UTF-8" } });
    expect(await (await daemon.request("/brief/language")).json()).toEqual({
      language: "pt-BR",
      source: "system",
    });
  });

  it("saves a language-region tag in canonical form (source app) and keeps other brief settings", async () => {
    daemon = await startInProcessDaemon({ config: { brief: { style: "short" } } });
    const response = await daemon.request("/brief/language", {
      method: "PUT",
      body: { language: "zh-hans-cn" },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ language: "zh-Hans-CN", source: "app" });
    expect(await (await daemon.request("/brief/language")).json()).toEqual({
      language: "zh-Hans-CN",
      source: "app",
    });
    const saved = JSON.parse(await readFile(join(daemon.dataDir, CONFIG_FILE), "utf8"));
    expect(saved.brief).toEqual({ style: "short", language: "zh-Hans-CN" });
  });

  it.each([["es"], ["not a language"], ["en_US"], [""], [42]])(
    "refuses %j with 422 invalid_language",
    async (language) => {
      daemon = await startInProcessDaemon();
      const response = await daemon.request("/brief/language", { method: "PUT", body: { language } });
      expect(response.status).toBe(422);
      expect(await errorCode(response)).toBe("invalid_language");
    },
  );

  it("refuses a body without language with 422 invalid_language", async () => {
    daemon = await startInProcessDaemon();
    const response = await daemon.request("/brief/language", { method: "PUT", body: {} });
    expect(await errorCode(response)).toBe("invalid_language");
  });
});
