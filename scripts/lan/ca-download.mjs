import { readFileSync } from "node:fs";
import { createServer } from "node:http";

/**
 * A plain-HTTP page on the LAN that hands out only the local CA's certificate (never its key): a phone cannot
 * reach the HTTPS relay until it trusts the CA, so this is how the CA gets onto it. Resolves with its address.
 */
export function serveCaCertificate(caCertPath, host, port) {
  const certificate = readFileSync(caCertPath);
  const server = createServer((request, response) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      response.writeHead(405, { Allow: "GET" }).end();
      return;
    }
    response.writeHead(200, {
      "Content-Type": "application/x-x509-ca-cert",
      "Content-Disposition": 'attachment; filename="ringback-local-ca.crt"',
      "Content-Length": certificate.length,
    });
    response.end(request.method === "HEAD" ? undefined : certificate);
  });
  return new Promise((resolve, reject) => {
    server.once("error", (error) =>
      reject(
        error.code === "EADDRINUSE"
          ? new Error(`port ${port} on ${host} is in use: set RINGBACK_CA_PORT to another port`)
          : error,
      ),
    );
    server.listen(port, host, () => resolve({ url: `http://${host}:${port}/ringback-local-ca.crt`, server }));
  });
}

/** What a person does on the phone to trust the CA, once. */
export function trustInstructions(caUrl) {
  return [
    "Your phone must trust this computer's certificate authority once (the relay serves HTTPS with it):",
    `  1. On the phone, on the same network, open ${caUrl} (or scan the first QR code below).`,
    '  2. iPhone: allow the download; Settings › General › VPN & Device Management › "Ringback local CA" › Install;',
    "     then Settings › General › About › Certificate Trust Settings › turn on full trust for it.",
    "     Android: Settings › Security & privacy › More security settings › Encryption & credentials ›",
    "     Install a certificate › CA certificate › choose ringback-local-ca.crt.",
    "  3. Then open the pairing link (the second QR code).",
  ].join("\n");
}
