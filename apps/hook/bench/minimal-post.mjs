// The floor the hook is measured against: the least a script on public Node APIs does for the same job. It reads
// the Stop payload from process.stdin, posts it to the daemon with node:net and awaits the 202. The daemon's port
// and key come as arguments (the hook reads them from {data_dir}); nothing is parsed, checked or cut.
import { connect } from "node:net";

const [port, key] = process.argv.slice(2);
const chunks = [];
process.stdin.on("data", (chunk) => chunks.push(chunk));
process.stdin.on("end", () => {
  const body = Buffer.concat(chunks);
  const socket = connect({ host: "127.0.0.1", port: Number(port) });
  socket.write(
    `POST /report HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
  );
  socket.write(body);
  socket.once("data", (answer) => {
    if (!answer.toString("latin1").startsWith("HTTP/1.1 202 ")) process.exitCode = 1;
    socket.destroy();
  });
});
