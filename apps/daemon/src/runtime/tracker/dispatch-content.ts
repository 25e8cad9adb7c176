import type { Attachment } from "@ringback/protocol";

/**
 * What the tracker receives for a dispatch: the user's words, then one markdown image link per attachment
 * (spec: POST /tracker/dispatches). Images alone are allowed.
 */
export function dispatchContent(words: string, attachments: readonly Attachment[]): string {
  const links = attachments.map(
    (attachment) => `![${escapeAltText(attachment.filename)}](${attachment.markdownUrl})`,
  );
  return [words.trim(), links.join("\n")].filter((part) => part !== "").join("\n\n");
}

/** Brackets in a file name would end the link text early. */
function escapeAltText(text: string): string {
  return text.replace(/[[\]\\]/g, (character) => `\\${character}`);
}
