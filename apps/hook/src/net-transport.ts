import { type ByteChannel, streamChannel, type Transport } from "./byte-channel.js";

/** `process.stdin` as a channel: whatever stdin is (a pipe, a file, a terminal), Node's own stream reads it. */
export function processStdin(): ByteChannel {
  return streamChannel(process.stdin, true);
}

/**
 * The portable transport: `process.stdin` and a node:net socket. Its modules (node:net and node:stream) are loaded
 * on first use, never by merely loading the hook. Built-ins come from the runtime rather than `import`: an ESM
 * `import` of a built-in builds its whole namespace (see post-report.ts).
 */
export const netTransport: Transport = {
  name: "node:net",
  stdin: processStdin,
  connect(port) {
    const socket = process.getBuiltinModule("node:net").connect({ host: "127.0.0.1", port });
    socket.setNoDelay(true);
    return streamChannel(socket, true);
  },
};
