import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { getCACertificates, setDefaultCACertificates } from "node:tls";
import { listenOnLoopback, makeTemporaryDirectory } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { modelFetch } from "./model-fetch.js";

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** A test server on 127.0.0.1, port 0, closed with its connections on dispose. */
async function serve(handler: Handler) {
  const server = createServer(handler);
  return { server, ...(await listenOnLoopback(server)) };
}

function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of request) text += chunk;
  return text;
}

/** A request the server holds: settles `arrived` once its body is read, `closed` when its socket closes. */
function heldRequest() {
  const arrived = deferred();
  const closed = deferred();
  const handler: Handler = (request) => {
    request.socket.once("close", () => closed.resolve());
    void bodyOf(request).then(() => arrived.resolve());
  };
  return { handler, arrived: arrived.promise, closed: closed.promise };
}

describe("modelFetch", () => {
  it("sends the method, the headers and the body, and answers with the status, its text and the headers", async () => {
    let seen: { method?: string; headers?: IncomingMessage["headers"]; body?: string } = {};
    await using server = await serve(async (request, response) => {
      seen = { method: request.method, headers: request.headers, body: await bodyOf(request) };
      response.writeHead(201, "Made", { "content-type": "application/json", "x-answer": "yes" });
      response.end('{"ok":true}');
    });

    const response = await modelFetch(`${server.origin}/v1/chat/completions?x=1`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: '{"model":"m","text":"é"}',
    });

    expect(seen).toMatchObject({
      method: "POST",
      headers: {
        authorization: "Bearer sk-test",
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength('{"model":"m","text":"é"}')),
        "accept-encoding": "identity",
      },
      body: '{"model":"m","text":"é"}',
    });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe("Made");
    expect(response.headers.get("x-answer")).toBe("yes");
    expect(await response.json()).toEqual({ ok: true });
  });

  it("hands over each piece of the body as it arrives, before the response ends", async () => {
    const secondMayGo = deferred();
    await using server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      void secondMayGo.promise.then(() => response.end("data: second\n\n"));
    });

    const response = await modelFetch(server.origin, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe("data: first\n\n");
    secondMayGo.resolve();
    const second = await reader.read();
    expect(decoder.decode(second.value)).toBe("data: second\n\n");
    expect((await reader.read()).done).toBe(true);
  });

  it("aborted before the response's head, rejects with the reason and closes the connection at once", async () => {
    const held = heldRequest();
    await using server = await serve(held.handler);
    const controller = new AbortController();

    const answer = modelFetch(server.origin, { method: "POST", body: "{}", signal: controller.signal });
    await held.arrived;
    controller.abort(new Error("the overall limit expired"));

    await expect(answer).rejects.toThrow("the overall limit expired");
    await held.closed;
  });

  it("aborted in the middle of the body, errors it with the reason and closes the connection", async () => {
    const closed = deferred();
    await using server = await serve((request, response) => {
      request.socket.once("close", () => closed.resolve());
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
    });
    const controller = new AbortController();

    const response = await modelFetch(server.origin, {
      method: "POST",
      body: "{}",
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort(new Error("the no-progress limit expired"));

    await expect(reader.read()).rejects.toThrow("the no-progress limit expired");
    await closed.promise;
  });

  it("closes the connection when the body is cancelled", async () => {
    const closed = deferred();
    await using server = await serve((request, response) => {
      request.socket.once("close", () => closed.resolve());
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
    });

    const response = await modelFetch(server.origin, { method: "POST", body: "{}" });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();

    await closed.promise;
  });

  it("rejects at once when the signal is already aborted, without connecting", async () => {
    let requests = 0;
    await using server = await serve((_request, response) => {
      requests++;
      response.end();
    });

    const answer = modelFetch(server.origin, { signal: AbortSignal.abort(new Error("stopping")) });

    await expect(answer).rejects.toThrow("stopping");
    expect(requests).toBe(0);
  });

  it("says the server closed the connection when it does so in the middle of the body", async () => {
    await using server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n", () => response.socket?.destroy());
    });

    const response = await modelFetch(server.origin, { method: "POST", body: "{}" });

    await expect(response.text()).rejects.toThrow(/the server closed the connection/);
  });

  it("names ECONNREFUSED when nothing listens at the address", async () => {
    const server = await serve(() => {});
    await server.close();

    const answer = modelFetch(server.origin, { method: "POST", body: "{}" });

    await expect(answer).rejects.toThrow(TypeError);
    await expect(answer).rejects.toMatchObject({
      message: expect.stringMatching(
        /^fetch failed: nothing accepts connections at that address \(.*ECONNREFUSED/,
      ),
      cause: { code: "ECONNREFUSED", message: expect.stringContaining("ECONNREFUSED") },
    });
  });

  it("never connects to a link-local or metadata address, nor follows a redirect there", async () => {
    for (const address of [
      "http://169.254.169.254/latest",
      "http://[fd00:ec2::254]/v1",
      "http://[::ffff:a9fe:a9fe]/",
    ]) {
      await expect(modelFetch(address, { method: "POST", body: "{}" })).rejects.toMatchObject({
        message: expect.stringContaining("never go to a link-local or cloud metadata address"),
        cause: { code: "ERR_FORBIDDEN_ADDRESS" },
      });
    }
    await using redirecting = await serve((request, response) => {
      request.resume();
      response.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    });
    await expect(modelFetch(redirecting.origin, { method: "POST", body: "{}" })).rejects.toMatchObject({
      cause: { code: "ERR_FORBIDDEN_ADDRESS" },
    });
  });

  it("follows a redirect as fetch does, without the key to another origin", async () => {
    let seen: { method?: string; authorization?: string; body?: string } = {};
    await using target = await serve(async (request, response) => {
      seen = {
        method: request.method,
        authorization: request.headers.authorization,
        body: await bodyOf(request),
      };
      response.end("moved here");
    });
    await using origin = await serve((request, response) => {
      request.resume();
      response.writeHead(307, { location: `${target.origin}/v1/chat/completions` }).end();
    });

    const response = await modelFetch(`${origin.origin}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test" },
      body: '{"model":"m"}',
    });

    expect(await response.text()).toBe("moved here");
    expect(seen).toEqual({ method: "POST", authorization: undefined, body: '{"model":"m"}' });
  });
});

describe("modelFetch over https", () => {
  /** A self-signed certificate for 127.0.0.1, made with openssl. */
  function selfSigned(directory: string) {
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "1"],
        ...["-keyout", "key.pem", "-out", "cert.pem", "-subj", "/CN=127.0.0.1"],
        ...["-addext", "subjectAltName=IP:127.0.0.1"],
      ],
      { cwd: directory, stdio: "pipe" },
    );
    return {
      key: readFileSync(join(directory, "key.pem"), "utf8"),
      cert: readFileSync(join(directory, "cert.pem"), "utf8"),
    };
  }

  async function serveHttps(credentials: { key: string; cert: string }) {
    const server = createHttpsServer(credentials, (_request, response) => response.end("over TLS"));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    return {
      origin: `https://127.0.0.1:${port}`,
      async [Symbol.asyncDispose]() {
        server.closeAllConnections();
        server.close();
        await once(server, "close");
      },
    };
  }

  it("refuses a certificate no trusted CA signed, and says it was TLS", async () => {
    await using directory = await makeTemporaryDirectory();
    await using server = await serveHttps(selfSigned(directory.path));

    const answer = modelFetch(server.origin);

    await expect(answer).rejects.toMatchObject({
      message: expect.stringMatching(/^fetch failed: TLS failed: .*DEPTH_ZERO_SELF_SIGNED_CERT/),
      cause: { code: "DEPTH_ZERO_SELF_SIGNED_CERT" },
    });
  });

  it("talks https with the CAs Node trusts by default", async () => {
    await using directory = await makeTemporaryDirectory();
    const credentials = selfSigned(directory.path);
    await using server = await serveHttps(credentials);
    const defaults = getCACertificates("default");
    setDefaultCACertificates([...defaults, credentials.cert]);
    try {
      const response = await modelFetch(server.origin);

      expect(await response.text()).toBe("over TLS");
    } finally {
      setDefaultCACertificates(defaults);
    }
  });
});
