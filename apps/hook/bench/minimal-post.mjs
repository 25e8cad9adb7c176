// The floor the hook is measured against: the least a script on public Node APIs does for the same job. It reads
// the Stop payload from process.stdin, signs it with the local key (node:crypto's HMAC, as the hook must: the key
// never leaves the process), posts it to the daemon with node:net and awaits the 202 with the daemon's proof, which
// it checks. The daemon's port and key come as arguments (the hook reads them from {data_dir}); nothing is parsed,
// checked or cut.
import { createHash, createHmac, randomBytes } from "node:crypto";
import { connect } from "node:net";

const [port, key] = process.argv.slice(2);
const hmac = (lines) => createHmac("sha256", key).update(lines.join("\n")).digest("base64url");
const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");
const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const body = Buffer.concat(chunks);
  const now = Date.now();
  const nonce = randomBytes(16).toString("base64url");
  const proof = hmac(["ringback/local-proof/v1/request", "POST", port, "/report", now, nonce, sha256(body)]);
  const socket = connect({ host: "127.0.0.1", port: Number(port) });
  socket.write(
    `POST /report HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nRingback-Request-Proof: v1.${now}.${nonce}.${proof}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body);
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk.toString("latin1");
    const headEnd = answer.indexOf("\r\n\r\n");
    const length = /^content-length: *(\d+)/im.exec(answer)?.[1];
    if (headEnd === -1 || length === undefined || answer.length < headEnd + 4 + Number(length)) return;
    const expected = hmac(["ringback/local-proof/v1/answer", proof, 202, sha256(answer.slice(headEnd + 4))]);
    if (!answer.startsWith("HTTP/1.1 202 ") || !answer.includes(`v1.${expected}`)) process.exitCode = 1;
    socket.destroy();
  });
});
