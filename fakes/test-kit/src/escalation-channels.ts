import { randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type LoopbackServer, listenOnLoopback } from "./loopback-server.js";

/** A service the stand-in speaks. */
export type EscalationService = "ntfy" | "pushover" | "telegram" | "twilio";

/** A request as it reached the stand-in, in full: what a test searches for text that must never leave. */
export interface ChannelRequest {
  readonly service: EscalationService;
  readonly method: string;
  /** Path and query as sent. */
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Milliseconds on the test's clock (Date.now(), faked or not) when it arrived. */
  readonly at: number;
}

/** The accounts the stand-in knows: a request with other credentials is refused as the real service refuses it. */
export interface ChannelAccounts {
  readonly ntfyToken?: string;
  readonly pushover: { readonly appToken: string; readonly userKey: string };
  readonly telegram: { readonly botToken: string; readonly chatId: string };
  readonly twilio: { readonly accountSid: string; readonly authToken: string };
}

export interface FakeEscalationChannels extends LoopbackServer {
  readonly requests: readonly ChannelRequest[];
  /** Pushover receipts handed out, in order, with whether each was cancelled. */
  readonly receipts: readonly { readonly receipt: string; cancelled: boolean; acknowledged: boolean }[];
  /** Twilio calls placed, in order, with their status. */
  readonly calls: readonly { readonly sid: string; status: string }[];
  /** The person taps the Pushover alert: its receipt reads acknowledged from now on. */
  acknowledge(receipt: string): void;
  /** The next request to `service` is answered with this status (and the service's own error shape). */
  failNext(service: EscalationService, status: number): void;
}

const PUSHOVER_RETRY_MIN_SECONDS = 30;
const PUSHOVER_EXPIRE_MAX_SECONDS = 10_800;
const PUSHOVER_MESSAGE_MAX_CHARS = 1024;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function serviceOf(path: string): EscalationService {
  if (path.startsWith("/1/")) return "pushover";
  if (path.startsWith("/bot")) return "telegram";
  if (path.startsWith("/2010-04-01/")) return "twilio";
  return "ntfy";
}

/**
 * ntfy, Pushover, Telegram's Bot API and Twilio's Calls API on one loopback port, each at its real paths, taking
 * what the real service takes and answering as it answers (docs/escalation.md has the facts): a test against it
 * means something. Point the daemon at it with `RINGBACK_PUSHOVER_API_URL` and its siblings, ntfy by its server URL.
 */
export async function startFakeEscalationChannels(
  accounts: ChannelAccounts,
): Promise<FakeEscalationChannels> {
  const requests: ChannelRequest[] = [];
  const receipts: { receipt: string; cancelled: boolean; acknowledged: boolean }[] = [];
  const calls: { sid: string; status: string }[] = [];
  const failures = new Map<EscalationService, number>();

  const refusal = (service: EscalationService, status: number): unknown => {
    switch (service) {
      case "ntfy":
        return { code: status * 100 + 1, http: status, error: "refused by the test" };
      case "pushover":
        return { status: 0, request: randomUUID(), errors: ["refused by the test"] };
      case "telegram":
        return { ok: false, error_code: status, description: "Refused by the test" };
      case "twilio":
        return { code: 20_000 + status, message: "Refused by the test", status };
    }
  };

  const ntfy = (response: ServerResponse, request: ChannelRequest) => {
    const topic = request.url.split("?")[0]?.slice(1) ?? "";
    if (request.method !== "POST" && request.method !== "PUT")
      return json(response, 405, refusal("ntfy", 405));
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(topic)) return json(response, 404, refusal("ntfy", 404));
    if (accounts.ntfyToken && request.headers.authorization !== `Bearer ${accounts.ntfyToken}`) {
      return json(response, 403, { code: 40301, http: 403, error: "forbidden" });
    }
    json(response, 200, {
      id: randomBytes(6).toString("hex"),
      time: Math.floor(Date.now() / 1000),
      event: "message",
      topic,
      message: request.body,
      title: request.headers.title,
      priority: Number(request.headers.priority ?? 3),
      click: request.headers.click,
    });
  };

  const pushover = (response: ServerResponse, request: ChannelRequest) => {
    const path = request.url.split("?")[0] ?? "";
    const form = new URLSearchParams(request.method === "GET" ? request.url.split("?")[1] : request.body);
    const invalid = (error: string) =>
      json(response, 400, { status: 0, request: randomUUID(), errors: [error] });
    if (form.get("token") !== accounts.pushover.appToken) return invalid("application token is invalid");
    if (path === "/1/messages.json" && request.method === "POST") {
      if (form.get("user") !== accounts.pushover.userKey)
        return invalid("user identifier is not a valid user");
      const message = form.get("message") ?? "";
      if (message === "" || message.length > PUSHOVER_MESSAGE_MAX_CHARS)
        return invalid("message cannot be blank");
      if (form.get("priority") !== "2") return json(response, 200, { status: 1, request: randomUUID() });
      const retry = Number(form.get("retry"));
      const expire = Number(form.get("expire"));
      if (!form.has("retry") || !(retry >= PUSHOVER_RETRY_MIN_SECONDS))
        return invalid("retry must be at least 30");
      if (!form.has("expire") || !(expire > 0 && expire <= PUSHOVER_EXPIRE_MAX_SECONDS)) {
        return invalid("expire must be supplied with priority=2");
      }
      const receipt = randomBytes(15).toString("hex");
      receipts.push({ receipt, cancelled: false, acknowledged: false });
      return json(response, 200, { status: 1, request: randomUUID(), receipt });
    }
    const receiptMatch = /^\/1\/receipts\/([A-Za-z0-9]+)(\/cancel)?\.json$/.exec(path);
    const held = receipts.find((entry) => entry.receipt === receiptMatch?.[1]);
    if (!receiptMatch || !held) return json(response, 404, { status: 0, errors: ["receipt not found"] });
    if (receiptMatch[2] && request.method === "POST") {
      held.cancelled = true;
      return json(response, 200, { status: 1, request: randomUUID() });
    }
    if (receiptMatch[2] || request.method !== "GET") return json(response, 405, refusal("pushover", 405));
    json(response, 200, {
      status: 1,
      acknowledged: held.acknowledged ? 1 : 0,
      acknowledged_at: held.acknowledged ? Math.floor(Date.now() / 1000) : 0,
      acknowledged_by: "",
      acknowledged_by_device: "",
      last_delivered_at: Math.floor(Date.now() / 1000),
      expired: 0,
      expires_at: Math.floor(Date.now() / 1000) + 900,
      called_back: 0,
      called_back_at: 0,
      request: randomUUID(),
    });
  };

  const telegram = (response: ServerResponse, request: ChannelRequest) => {
    const match = /^\/bot([^/]+)\/sendMessage$/.exec(request.url.split("?")[0] ?? "");
    if (!match || match[1] !== accounts.telegram.botToken) {
      return json(response, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    }
    let message: { chat_id?: unknown; text?: unknown };
    try {
      message = JSON.parse(request.body) as typeof message;
    } catch {
      return json(response, 400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message text is empty",
      });
    }
    if (typeof message.text !== "string" || message.text === "") {
      return json(response, 400, {
        ok: false,
        error_code: 400,
        description: "Bad Request: message text is empty",
      });
    }
    if (String(message.chat_id) !== accounts.telegram.chatId) {
      return json(response, 400, { ok: false, error_code: 400, description: "Bad Request: chat not found" });
    }
    json(response, 200, {
      ok: true,
      result: {
        message_id: requests.length,
        date: Math.floor(Date.now() / 1000),
        chat: { id: message.chat_id },
        text: message.text,
      },
    });
  };

  const twilio = (response: ServerResponse, request: ChannelRequest) => {
    const { accountSid, authToken } = accounts.twilio;
    const expected = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString("base64")}`;
    const base = `/2010-04-01/Accounts/${accountSid}/Calls`;
    if (request.headers.authorization !== expected || !request.url.startsWith(base)) {
      return json(response, 401, { code: 20003, message: "Authenticate", status: 401 });
    }
    const form = new URLSearchParams(request.body);
    if (request.url === `${base}.json` && request.method === "POST") {
      if (!form.get("To") || !form.get("From")) {
        return json(response, 400, { code: 21201, message: "No 'To' number is specified", status: 400 });
      }
      if (!form.get("Twiml") && !form.get("Url")) {
        return json(response, 400, { code: 21205, message: "Url parameter is required.", status: 400 });
      }
      const sid = `CA${randomBytes(16).toString("hex")}`;
      calls.push({ sid, status: "queued" });
      return json(response, 201, {
        sid,
        status: "queued",
        to: form.get("To"),
        from: form.get("From"),
        account_sid: accountSid,
      });
    }
    const call = calls.find((entry) => request.url === `${base}/${entry.sid}.json`);
    const status = form.get("Status");
    if (!call)
      return json(response, 404, {
        code: 20404,
        message: "The requested resource was not found",
        status: 404,
      });
    if (status !== "canceled" && status !== "completed") {
      return json(response, 400, { code: 21218, message: "Invalid 'Status' parameter", status: 400 });
    }
    call.status = status;
    json(response, 200, { sid: call.sid, status });
  };

  const server = createServer((incoming, response) => {
    void readBody(incoming).then((body) => {
      const url = incoming.url ?? "/";
      const service = serviceOf(url);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string") headers[name] = value;
      }
      const request: ChannelRequest = {
        service,
        method: incoming.method ?? "GET",
        url,
        headers,
        body,
        at: Date.now(),
      };
      requests.push(request);
      const failure = failures.get(service);
      if (failure !== undefined) {
        failures.delete(service);
        return json(response, failure, refusal(service, failure));
      }
      ({ ntfy, pushover, telegram, twilio })[service](response, request);
    });
  });
  const listening = await listenOnLoopback(server);
  return {
    ...listening,
    requests,
    receipts,
    calls,
    acknowledge(receipt) {
      const held = receipts.find((entry) => entry.receipt === receipt);
      if (!held) throw new Error(`no receipt ${receipt}`);
      held.acknowledged = true;
    },
    failNext(service, status) {
      failures.set(service, status);
    },
  };
}
