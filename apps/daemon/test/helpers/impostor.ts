import { createServer } from "node:http";
import { connect } from "node:net";
import { type LoopbackServer, listenOnLoopback } from "@ringback/test-kit";

/** What an impostor answers: a status and a body, with a proof header of its own making when it tries to forge one. */
export interface ImpostorAnswer {
  status: number;
  body: string;
  forgedProof?: string;
}

/** Another user's program that took the daemon's port: it keeps every request, whole, to send it again later. */
export interface Impostor extends LoopbackServer {
  /** Each request as it came over the wire (request line, headers as sent, body). */
  readonly captured: Buffer[];
}

/** A real HTTP server on 127.0.0.1 posing as the daemon: it answers every request with `answer`. */
export async function startImpostor(answer: ImpostorAnswer): Promise<Impostor> {
  const captured: Buffer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const headers: string[] = [];
      for (let index = 0; index < request.rawHeaders.length; index += 2)
        headers.push(`${request.rawHeaders[index]}: ${request.rawHeaders[index + 1]}`);
      const head = `${request.method} ${request.url} HTTP/${request.httpVersion}\r\n${headers.join("\r\n")}\r\n\r\n`;
      captured.push(Buffer.concat([Buffer.from(head, "latin1"), ...chunks]));
      response.writeHead(answer.status, {
        "Content-Type": "application/json",
        ...(answer.forgedProof === undefined ? {} : { "Ringback-Answer-Proof": answer.forgedProof }),
      });
      response.end(answer.body);
    });
  });
  const listening = await listenOnLoopback(server);
  return Object.assign(listening, { captured });
}

/** Sends `request` byte for byte to 127.0.0.1:`port` and resolves with the status of the answer. */
export function sendAgain(port: number, request: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    let received = "";
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1];
      if (status) {
        socket.destroy();
        resolve(Number(status));
      }
    });
    socket.on("error", reject);
    socket.write(request);
  });
}
