import { COMPUTER_TEXTS } from "@ringback/client/texts";
import { deriveKeyFromPassphrase } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import type { ComputerKeyCheck } from "./computer-key.js";
import { EncryptionController, keyCheckText } from "./encryption-controller.js";

/** The app's key owner: derives the key as ComputerKey.changeKey does, and answers with a set check. */
function owner(check: ComputerKeyCheck) {
  const phrases: string[] = [];
  return {
    phrases,
    async changeKey(phrase: string) {
      await deriveKeyFromPassphrase(phrase, "acc_test");
      phrases.push(phrase);
      return check;
    },
    async checkComputerKey() {
      return check;
    },
  };
}

describe("Settings › Encryption", () => {
  it("refuses a phrase under 12 characters (counted after NFC) without replacing the key", async () => {
    const keys = owner("matches");
    const controller = new EncryptionController(keys);
    // 12 code points as typed, 11 once "e" + combining acute is composed to "é".
    await controller.change("cafe\u0301-123456");
    expect(controller.view.problem?.kind).toBe("phrase-too-short");
    expect(keys.phrases).toEqual([]);
  });

  it("says whether the computer uses the same key after the change", async () => {
    const keys = owner("differs");
    const controller = new EncryptionController(keys);
    await controller.change("correct horse battery staple");
    expect(keys.phrases).toEqual(["correct horse battery staple"]);
    expect(controller.view).toMatchObject({ busy: null, problem: null, check: "differs" });
    expect(keyCheckText("differs", COMPUTER_TEXTS.en)).toContain("ringback");
  });

  it("checks the computer's key on demand", async () => {
    const controller = new EncryptionController(owner("offline"));
    await controller.check();
    expect(controller.view.check).toBe("offline");
    expect(keyCheckText("offline", COMPUTER_TEXTS.en)).toContain("offline");
    expect(keyCheckText("no-computer", COMPUTER_TEXTS.zh)).toContain("电脑");
  });
});
