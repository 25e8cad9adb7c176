import { normaliseServerUrl, parsePairingLink } from "@ringback/client";

/**
 * Where a device whose relay is out of reach takes a new pairing link: "here" when the link opens this web app (the
 * welcome page, opened from the link, joins with it); "there" when it opens the web app at another address, as
 * after `start --lan` (the app at https://<LAN address>): that is another origin, with storage of its own, and the
 * page here may talk to its own relay only (the relay serves it with `connect-src 'self'`), so the browser goes
 * there and the page there joins. Throws `PairingLinkError` for a text that is not a pairing link.
 */
export function rejoinPlace(link: string, href: string): "here" | "there" {
  const trimmed = link.trim();
  parsePairingLink(trimmed);
  const linkApp = normaliseServerUrl(trimmed.slice(0, trimmed.indexOf("#")));
  return linkApp === normaliseServerUrl(new URL(".", href).href) ? "here" : "there";
}
