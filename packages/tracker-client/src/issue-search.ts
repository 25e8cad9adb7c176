/**
 * The query to send as `q`. The tracker matches every title word, or the issue number when the query
 * is a bare number or `<letters>-<number>`. Prefixes may also hold digits (`^[A-Z0-9]{1,10}$`), and
 * people type `#12`; the tracker would not read those as numbers, so they are sent as the bare number.
 */
export function issueSearchQuery(query: string): string {
  const trimmed = query.trim();
  if (/^[a-z]+-\d+$/i.test(trimmed)) return trimmed;
  const numbered = /^(?:#|(?=[a-z0-9]{0,9}[a-z])[a-z0-9]{1,10}-)(\d+)$/i.exec(trimmed);
  return numbered?.[1] ?? trimmed;
}
