import type { DeviceKind } from "@ringback/protocol";
import type { InterfaceLanguage } from "../interface-language.js";

/** A device named by its kind, where its name cannot be read ("shown on a phone"): one source for every text set. */
export const DEVICE_KIND_WORDS: Readonly<Record<InterfaceLanguage, Readonly<Record<DeviceKind, string>>>> = {
  en: { computer: "a computer", browser: "a browser", phone: "a phone" },
  zh: { computer: "电脑", browser: "浏览器", phone: "手机" },
};
