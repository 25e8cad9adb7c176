import { BRIEF_LANGUAGE_RETRY_MS, RingbackError } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RelayError } from "../relay/relay-error.js";
import { BriefLanguageSync } from "./brief-language-sync.js";
import { defaultReportLanguage } from "./default-language.js";
import { REPORT_LOCALES } from "./locales.js";

describe("report language list", () => {
  it("offers 90 distinct language-region locales", () => {
    expect(REPORT_LOCALES).toHaveLength(90);
    expect(new Set(REPORT_LOCALES).size).toBe(90);
    for (const locale of REPORT_LOCALES) expect(new Intl.Locale(locale).region).toBeTruthy();
  });
});

describe("report language by default", () => {
  it("takes the region of the system's preferred language", () => {
    expect(defaultReportLanguage(["de-AT", "en-US"])).toBe("de-AT");
    expect(defaultReportLanguage(["pt_BR"])).toBe("pt-BR");
    expect(defaultReportLanguage(["zh-Hans-CN"])).toBe("zh-CN");
  });

  it("takes the region from a later preferred tag of the same language", () => {
    expect(defaultReportLanguage(["en", "en-GB", "fr-FR"])).toBe("en-GB");
  });

  it("falls back to the language's most common region", () => {
    expect(defaultReportLanguage(["fr"])).toBe("fr-FR");
    expect(defaultReportLanguage(["ja"])).toBe("ja-JP");
    expect(defaultReportLanguage(["es-419"])).toBe("es-ES");
    expect(defaultReportLanguage(["zh-Hant"])).toBe("zh-TW");
    expect(defaultReportLanguage(["zh-MO"])).toBe("zh-TW");
    expect(defaultReportLanguage(["no"])).toBe("nb-NO");
  });

  it("falls back to en-US for a language the list does not have, or no system language", () => {
    expect(defaultReportLanguage(["yo-NG"])).toBe("en-US");
    expect(defaultReportLanguage([])).toBe("en-US");
    expect(defaultReportLanguage(["!!"])).toBe("en-US");
  });
});

describe("brief language sent to the daemon", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it("retries every 30 seconds while the computer is offline, then stops once saved", async () => {
    const put = vi
      .fn<(language: string) => Promise<void>>()
      .mockRejectedValueOnce(new RingbackError("computer_offline"))
      .mockRejectedValueOnce(new RelayError(null, null, "unreachable"))
      .mockResolvedValue(undefined);
    const sync = new BriefLanguageSync(put);
    await sync.send("de-AT");
    expect(sync.state.status).toBe("waiting");
    await vi.advanceTimersByTimeAsync(BRIEF_LANGUAGE_RETRY_MS - 1);
    expect(put).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(put).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(BRIEF_LANGUAGE_RETRY_MS);
    expect(put).toHaveBeenCalledTimes(3);
    expect(sync.state).toEqual({ status: "saved", language: "de-AT" });
    await vi.advanceTimersByTimeAsync(BRIEF_LANGUAGE_RETRY_MS * 3);
    expect(put).toHaveBeenCalledTimes(3);
  });

  it("does not retry a rejection", async () => {
    const put = vi.fn(async () => {
      throw new RingbackError("undecryptable_request");
    });
    const sync = new BriefLanguageSync(put);
    await sync.send("fr-FR");
    await vi.advanceTimersByTimeAsync(BRIEF_LANGUAGE_RETRY_MS * 3);
    expect(put).toHaveBeenCalledTimes(1);
    expect(sync.state.status).toBe("rejected");
  });

  it("sends a language changed while the last is under way only once that one is done, never out of order", async () => {
    const settled: Array<() => void> = [];
    const put = vi.fn((_language: string) => new Promise<void>((resolve) => settled.push(() => resolve())));
    const sync = new BriefLanguageSync(put);
    const atStart = sync.send("en-US");
    await vi.advanceTimersByTimeAsync(0);
    expect(put.mock.calls.map(([language]) => language)).toEqual(["en-US"]);
    const changed = sync.send("de-DE");
    const changedAgain = sync.send("fr-FR");
    await vi.advanceTimersByTimeAsync(0);
    // en-US is still under way: the later two wait, and de-DE, superseded while it waited, is never sent.
    expect(put.mock.calls.map(([language]) => language)).toEqual(["en-US"]);
    settled.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
    expect(put.mock.calls.map(([language]) => language)).toEqual(["en-US", "fr-FR"]);
    settled.shift()?.();
    await Promise.all([atStart, changed, changedAgain]);
    expect(sync.state).toEqual({ status: "saved", language: "fr-FR" });
  });

  it("sends a changed language at once, dropping the retry of the old one", async () => {
    const put = vi
      .fn<(language: string) => Promise<void>>()
      .mockRejectedValueOnce(new RingbackError("computer_timeout"))
      .mockResolvedValue(undefined);
    const sync = new BriefLanguageSync(put);
    await sync.send("fr-FR");
    await sync.send("ja-JP");
    await vi.advanceTimersByTimeAsync(BRIEF_LANGUAGE_RETRY_MS * 2);
    expect(put.mock.calls.map(([language]) => language)).toEqual(["fr-FR", "ja-JP"]);
    expect(sync.state).toEqual({ status: "saved", language: "ja-JP" });
  });
});
