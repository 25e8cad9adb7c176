import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const CERTIFICATE_PATH = "/ringback-local-ca.crt";

const IPHONE_STEPS =
  'iPhone: allow the download; Settings › General › VPN & Device Management › the "Ringback local CA" profile › ' +
  "Install; then Settings › General › About › Certificate Trust Settings › turn on full trust for it.";
const ANDROID_STEPS =
  "Android: Settings › Security & privacy › More security settings › Encryption & credentials › Install a " +
  "certificate › CA certificate › choose ringback-local-ca.crt.";

const REMOVE_STEPS =
  "To remove it later: iPhone, Settings › General › VPN & Device Management › the profile › Remove Profile; " +
  "Android, Settings › Security (& privacy › More security settings) › Encryption & credentials › User credentials " +
  "› the CA › Remove.";

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** The page a phone opens first: the fingerprint to compare with the terminal's, the download, the steps. */
function downloadPage(ca) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ringback local CA</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:1rem;max-width:40rem}code{overflow-wrap:anywhere}
a.button{display:inline-block;padding:.75rem 1rem;border-radius:.5rem;background:#0a7;color:#fff;text-decoration:none}</style>
</head><body>
<h1>Trust this computer's Ringback CA</h1>
<p>${escapeHtml(ca.name)}, valid until ${escapeHtml(ca.validTo.toUTCString())}, only for ${escapeHtml(ca.servedNames)}.</p>
<p>Its SHA-256 fingerprint must be the one the terminal printed:</p>
<p><code>${escapeHtml(ca.fingerprint)}</code></p>
<p><a class="button" href="${CERTIFICATE_PATH}">Download the certificate</a></p>
<p>${escapeHtml(IPHONE_STEPS)}</p>
<p>${escapeHtml(ANDROID_STEPS)}</p>
<p>Then open the pairing link the terminal shows.</p>
<p>${escapeHtml(REMOVE_STEPS)}</p>
</body></html>
`;
}

/**
 * A plain-HTTP server on the LAN that hands out only the local CA's certificate (never its key), and at `/` a page
 * with its fingerprint and the steps: a phone cannot reach the HTTPS relay until it trusts the CA, so this is how the
 * CA gets onto it. Plain HTTP can be tampered with on the way, so the fingerprint to trust is the terminal's.
 * `ca`: { certPath, fingerprint, name, validTo, servedNames }. Resolves with the page's address.
 */
export function serveCaCertificate(ca, host, port) {
  const certificate = readFileSync(ca.certPath);
  const page = Buffer.from(downloadPage(ca));
  const server = createServer((request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { Allow: "GET" }).end();
      return;
    }
    const path = new URL(request.url ?? "/", "http://ca").pathname;
    const [status, headers, body] =
      path === CERTIFICATE_PATH
        ? [
            200,
            {
              "Content-Type": "application/x-x509-ca-cert",
              "Content-Disposition": 'attachment; filename="ringback-local-ca.crt"',
            },
            certificate,
          ]
        : path === "/"
          ? [200, { "Content-Type": "text/html; charset=utf-8" }, page]
          : [404, { "Content-Type": "text/plain" }, Buffer.from("Not here: open / for the CA.\n")];
    response.writeHead(status, { ...headers, "Content-Length": body.length, "Cache-Control": "no-store" });
    response.end(request.method === "HEAD" ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`port ${port} on ${host} is in use: choose another for the CA page with --ca-port`)
          : error,
      ),
    );
    server.listen(port, host, () => {
      const origin = `http://${host}:${server.address().port}`;
      resolve({ url: `${origin}/`, certificateUrl: `${origin}${CERTIFICATE_PATH}`, server });
    });
  });
}

/** What a person does on the phone to trust the CA, once per CA, around the QR code of the page. */
export function trustSteps(pageUrl, fingerprint, qrCode) {
  return [
    `  1. Trust this computer's certificate authority (the relay serves HTTPS with it): open ${pageUrl}`,
    "     on the phone, or scan this QR code:",
    "",
    qrCode.trimEnd(),
    "     Its SHA-256 fingerprint, to compare with the one the page and the phone show:",
    `     ${fingerprint}`,
    `     ${IPHONE_STEPS.replace(/; then /, ";\n     then ")}`,
    `     ${ANDROID_STEPS.replace(/ › Install a /, " ›\n     Install a ")}`,
  ];
}
