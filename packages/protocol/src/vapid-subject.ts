/**
 * What a push service makes of the relay's VAPID contact (RFC 8292 `sub`): `ok`; `refused`: Apple's push service
 * answers every push 403 BadJwtToken (a `localhost` contact), so Safari and iPhone devices never ring; `doubtful`: a
 * name reserved for examples or local networks, which reaches nobody and which Apple may refuse the same way;
 * `invalid`: neither `mailto:` nor `https:`. The reason is a sentence for a person, shared by the relay's start check
 * and `ringback doctor`.
 */
export type VapidSubjectCheck =
  | { readonly kind: "ok" }
  | { readonly kind: "refused" | "doubtful" | "invalid"; readonly reason: string };

const LOOPBACK_NAMES = new Set(["localhost", "localhost.localdomain", "127.0.0.1", "::1", "[::1]"]);
/** RFC 2606 and RFC 6761 names: examples, tests, invalid and local-network names reach no operator. */
const RESERVED_DOMAINS = ["example.com", "example.org", "example.net"];
const RESERVED_SUFFIXES = [".example", ".test", ".invalid", ".local", ".internal", ".home.arpa"];

export function vapidSubjectCheck(subject: string): VapidSubjectCheck {
  const host = subjectHost(subject.trim());
  if (host === null) {
    return {
      kind: "invalid",
      reason: `the VAPID contact ${JSON.stringify(subject)} is neither a mailto: address nor an https: URL`,
    };
  }
  if (LOOPBACK_NAMES.has(host) || host.endsWith(".localhost") || host.startsWith("127.")) {
    return {
      kind: "refused",
      reason: `the VAPID contact ${subject} names ${host}: Apple's push service refuses it (403 BadJwtToken), so Safari and iPhone devices never ring; set a real mailto: address or https: URL`,
    };
  }
  const isReserved =
    RESERVED_DOMAINS.some((domain) => host === domain || host.endsWith(`.${domain}`)) ||
    RESERVED_SUFFIXES.some((suffix) => host.endsWith(suffix)) ||
    !host.includes(".") ||
    /^[0-9.]+$/.test(host) ||
    host.startsWith("[");
  if (isReserved) {
    return {
      kind: "doubtful",
      reason: `the VAPID contact ${subject} names ${host}, which reaches nobody: Apple's push service may refuse it (403 BadJwtToken); set a real mailto: address or https: URL`,
    };
  }
  return { kind: "ok" };
}

/** The host a `mailto:` address or `https:` URL names, lower-cased; null when it is neither. */
function subjectHost(subject: string): string | null {
  const mailto = /^mailto:[^@\s]+@([^@\s?]+)(\?.*)?$/i.exec(subject);
  if (mailto?.[1]) return mailto[1].toLowerCase();
  if (!/^https:\/\//i.test(subject) || !URL.canParse(subject)) return null;
  return new URL(subject).hostname.toLowerCase();
}
