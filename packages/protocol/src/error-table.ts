import { ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_STATUS } from "./error-codes.js";

/** The README's error list, rendered from the code table (a test keeps the README in step). */
export function renderErrorTable(): string {
  const rows = ERROR_CODES.map(
    (code) => `| ${ERROR_STATUS[code]} | \`${code}\` | ${ERROR_DESCRIPTIONS[code]} |`,
  );
  return ["| Status | Code | Meaning |", "|---|---|---|", ...rows].join("\n");
}
