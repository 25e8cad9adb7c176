import { defineTexts } from "../text-sets.js";

/**
 * A paired device whose relay is out of reach (`CallCenterView.relayUnreachableSince`): the banner every page shows,
 * and the step that takes a new pairing link. Commands are written between backticks in both languages.
 */
export const RELAY_REACH_TEXTS = defineTexts({
  en: {
    relayUnreachable: (address: string, since: string) =>
      `This device cannot reach its relay at ${address} (trying since ${since}).`,
    relayUnreachableHelp:
      "Check this device's network. If your computer's Ringback now runs elsewhere (for example after `start --lan`), open a new pairing link on this device: `ringback pair` on the computer, or Settings › Devices › Add a device on another device.",
    rejoinAction: "Join with a new pairing link",
    rejoinTitle: "Join again with a new pairing link",
    rejoinLead: (address: string) =>
      `This device's relay at ${address} cannot be reached. Paste the new pairing link (from \`ringback pair\` on your computer, or Settings › Devices › Add a device on another device) and open it.`,
    rejoinOtherAddress:
      "A link to another address opens the app there, and this device joins at that address; the calls kept here stay at this one.",
    rejoinLinkLabel: "New pairing link",
    rejoinOpen: "Open the link",
    rejoinBack: "Back",
  },
  zh: {
    relayUnreachable: (address: string, since: string) =>
      `本设备无法连接它的中继服务器 ${address}（自 ${since} 起一直在重试）。`,
    relayUnreachableHelp:
      "请检查本设备的网络。如果你电脑上的 Ringback 现在在别处运行（例如运行了 `start --lan` 之后），请在本设备上打开新的配对链接：在电脑上运行 `ringback pair`，或在另一台设备的「设置 › 设备」中选择「添加设备」。",
    rejoinAction: "用新的配对链接加入",
    rejoinTitle: "用新的配对链接重新加入",
    rejoinLead: (address: string) =>
      `无法连接本设备的中继服务器 ${address}。请粘贴新的配对链接（电脑上 \`ringback pair\` 给出的，或另一台设备「设置 › 设备 › 添加设备」中的）并打开它。`,
    rejoinOtherAddress:
      "指向其他地址的链接会在那个地址打开应用，本设备在那里加入；这里保存的通话记录仍留在此地址。",
    rejoinLinkLabel: "新的配对链接",
    rejoinOpen: "打开链接",
    rejoinBack: "返回",
  },
});

export type RelayReachTexts = (typeof RELAY_REACH_TEXTS)["en"];
