import { describe, expect, it } from "vitest";
import { CALL_RULES_TEXTS } from "./call-rules.js";
import { COMPUTER_TEXTS } from "./computer.js";
import { CORE_TEXTS } from "./core.js";
import { ERROR_CODE_TEXTS } from "./error-codes.js";
import { ESCALATION_TEXTS } from "./escalation.js";
import { FLEET_TEXTS } from "./fleet.js";
import { IN_CALL_TEXTS } from "./in-call.js";
import { NEEDS_YOU_TEXTS } from "./needs-you.js";
import { NOTIFICATION_TEXTS } from "./notifications.js";
import { PROBLEM_TEXTS } from "./problems.js";
import { RELAY_REACH_TEXTS } from "./relay-reach.js";
import { SETTINGS_TEXTS } from "./settings.js";

const SETS = {
  core: CORE_TEXTS,
  errorCodes: ERROR_CODE_TEXTS,
  inCall: IN_CALL_TEXTS,
  needsYou: NEEDS_YOU_TEXTS,
  settings: SETTINGS_TEXTS,
  computer: COMPUTER_TEXTS,
  escalation: ESCALATION_TEXTS,
  fleet: FLEET_TEXTS,
  callRules: CALL_RULES_TEXTS,
  notifications: NOTIFICATION_TEXTS,
  problems: PROBLEM_TEXTS,
  relayReach: RELAY_REACH_TEXTS,
};

describe("the interface's text sets", () => {
  for (const [area, sets] of Object.entries(SETS)) {
    it(`${area}: Chinese has exactly the English keys, each of the same kind, none empty`, () => {
      const en = sets.en as Record<string, unknown>;
      const zh = sets.zh as Record<string, unknown>;
      expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
      for (const key of Object.keys(en)) {
        expect(typeof zh[key], key).toBe(typeof en[key]);
        if (typeof en[key] === "function")
          expect((zh[key] as () => string).length, key).toBe((en[key] as () => string).length);
        else expect((zh[key] as string).trim(), key).not.toBe("");
      }
    });
  }
});
