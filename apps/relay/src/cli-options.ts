import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { DEFAULT_RELAY_PORT } from "@ringback/protocol";
import { RelayUsageError } from "./cli-options-error.js";
import { publicUrl } from "./public-address.js";
import type { RelayConfig } from "./relay-config.js";
import { readTlsFiles, type TlsFiles } from "./tls-files.js";

export { RelayUsageError } from "./cli-options-error.js";

const DEFAULT_RELAY_HOST = "127.0.0.1";
const DEFAULT_DATA_DIR_NAME = ".ringback-relay";

export const USAGE = `Usage: ringback-relay [options]

  --host HOST               address to listen on (default 127.0.0.1)           RINGBACK_RELAY_HOST
  --port PORT               port, 0 for any free one (default ${DEFAULT_RELAY_PORT})            RINGBACK_RELAY_PORT
  --data DIR                data directory (default ~/${DEFAULT_DATA_DIR_NAME})         RINGBACK_RELAY_DATA
  --database URL            PostgreSQL (postgres://...) instead of SQLite in     RINGBACK_RELAY_DATABASE
                            the data directory; several relays may share it
  --open-signup             anyone may create an account, no claim code        RINGBACK_RELAY_OPEN_SIGNUP=1
  --behind-proxy            trust X-Forwarded-For for the client address       RINGBACK_RELAY_BEHIND_PROXY=1
  --web-root DIR            serve the web app from DIR at / (default: the one   RINGBACK_RELAY_WEB_ROOT
                            inside this package)
  --no-web                  serve no web app, the API only                     RINGBACK_RELAY_NO_WEB=1
  --web-connect-origins O,O other origins the web app may connect to (its      RINGBACK_RELAY_WEB_CONNECT_ORIGINS
                            CSP): a language model or speech endpoint
  --public-url URL          the https:// address phones reach this relay at,    RINGBACK_RELAY_PUBLIC_URL
                            put into pairing links (behind Caddy or own TLS)
  --tls-cert FILE           terminate TLS here: the PEM certificate chain...   RINGBACK_RELAY_TLS_CERT
  --tls-key FILE            ...and its PEM private key                         RINGBACK_RELAY_TLS_KEY
  --call-expiry-ms MS       unanswered calls expire after MS (default 24 h)    RINGBACK_RELAY_CALL_EXPIRY_MS
  --heartbeat-ms MS         SSE heartbeat interval (default 15 s)              RINGBACK_RELAY_HEARTBEAT_MS
  --sse-retry-ms MS         SSE retry hint to clients (default 2 s)            RINGBACK_RELAY_SSE_RETRY_MS
  --settings-timeout-ms MS  wait for a relayed settings answer (default 30 s)  RINGBACK_RELAY_SETTINGS_TIMEOUT_MS
  --push-subject URL        Web Push (VAPID) contact, mailto: or https:        RINGBACK_RELAY_PUSH_SUBJECT
  --push-hosts H1,H2        push services devices may subscribe at             RINGBACK_RELAY_PUSH_HOSTS
  --push-trusted-origins O  push services at these exact origins may use any   RINGBACK_RELAY_PUSH_TRUSTED_ORIGINS
                            port and address, private ones included (a test
                            push service, one inside your network); off
  --devices-per-account N   live devices an account may have (default 20)    RINGBACK_RELAY_DEVICES_PER_ACCOUNT
  --pairings-per-account N  devices that may join an account per hour (10)   RINGBACK_RELAY_PAIRINGS_PER_ACCOUNT
  --streams-per-account N   open streams per account, newest wins (32)       RINGBACK_RELAY_STREAMS_PER_ACCOUNT
  --streams-per-address N   open streams per client address (64)             RINGBACK_RELAY_STREAMS_PER_ADDRESS
  --signups-per-address N   open-signup accounts per client address and hour   RINGBACK_RELAY_SIGNUPS_PER_ADDRESS
                            (3; a day allows 2x, its /24 or /48 block 3x)
  --disk-free-min-mb N      refuse new data below N MiB free (default 256)    RINGBACK_RELAY_DISK_FREE_MIN_MB
  --version                 print the relay's version
  --help                    this text
`;

export interface RelayCliOptions {
  readonly host: string;
  readonly port: number;
  readonly dataDir: string;
  /** A `postgres://` URL, or null for SQLite in `dataDir`. */
  readonly databaseUrl: string | null;
  readonly config: Partial<RelayConfig>;
  /** `--no-web`: no web app at all, not even the one inside the package. */
  readonly isWebless: boolean;
  /** TLS terminated by the relay itself; null for plain HTTP (behind Caddy, or loopback). */
  readonly tls: TlsFiles | null;
  readonly isHelp: boolean;
  readonly isVersion: boolean;
}

const TRUE_WORDS = new Set(["1", "true", "yes", "on"]);

/** The relay's flags; each has an environment variable (`RINGBACK_RELAY_…`) that a flag overrides. */
const RELAY_FLAGS = {
  host: { type: "string" },
  port: { type: "string" },
  data: { type: "string" },
  database: { type: "string" },
  "open-signup": { type: "boolean" },
  "behind-proxy": { type: "boolean" },
  "web-root": { type: "string" },
  "no-web": { type: "boolean" },
  "web-connect-origins": { type: "string" },
  "call-expiry-ms": { type: "string" },
  "heartbeat-ms": { type: "string" },
  "sse-retry-ms": { type: "string" },
  "settings-timeout-ms": { type: "string" },
  "push-subject": { type: "string" },
  "push-hosts": { type: "string" },
  "push-trusted-origins": { type: "string" },
  "public-url": { type: "string" },
  "tls-cert": { type: "string" },
  "tls-key": { type: "string" },
  "devices-per-account": { type: "string" },
  "pairings-per-account": { type: "string" },
  "streams-per-account": { type: "string" },
  "streams-per-address": { type: "string" },
  "signups-per-address": { type: "string" },
  "disk-free-min-mb": { type: "string" },
  help: { type: "boolean" },
  version: { type: "boolean" },
} as const satisfies ParseArgsOptionsConfig;

type RelayFlags = ReturnType<typeof readRelayFlags>;

function readRelayFlags(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, options: RELAY_FLAGS }).values;
}

/** Flags win over environment variables, which win over defaults. */
export function parseRelayCliOptions(argv: readonly string[], env: NodeJS.ProcessEnv): RelayCliOptions {
  const values = readRelayFlags(argv);
  const config: Partial<RelayConfig> = {
    ...webConfig(values, env),
    ...pushConfig(values, env),
    ...limitConfig(values, env),
  };
  const portText = values.port ?? env.RINGBACK_RELAY_PORT;
  return {
    host: values.host ?? env.RINGBACK_RELAY_HOST ?? DEFAULT_RELAY_HOST,
    port: portText === undefined ? DEFAULT_RELAY_PORT : port(portText),
    dataDir: resolve(values.data ?? env.RINGBACK_RELAY_DATA ?? join(homedir(), DEFAULT_DATA_DIR_NAME)),
    databaseUrl: databaseUrl(values.database ?? env.RINGBACK_RELAY_DATABASE),
    config,
    isWebless: values["no-web"] ?? isTrue(env.RINGBACK_RELAY_NO_WEB),
    tls:
      values.help || values.version
        ? null
        : readTlsFiles(
            values["tls-cert"] ?? env.RINGBACK_RELAY_TLS_CERT,
            values["tls-key"] ?? env.RINGBACK_RELAY_TLS_KEY,
          ),
    isHelp: values.help ?? false,
    isVersion: values.version ?? false,
  };
}

/** Sign-up, the proxy in front, the web app and the address the relay is reached at. */
function webConfig(values: RelayFlags, env: NodeJS.ProcessEnv): Partial<RelayConfig> {
  const webRoot = values["web-root"] ?? env.RINGBACK_RELAY_WEB_ROOT;
  const config: Partial<RelayConfig> = {
    openSignup: values["open-signup"] ?? isTrue(env.RINGBACK_RELAY_OPEN_SIGNUP),
    behindProxy: values["behind-proxy"] ?? isTrue(env.RINGBACK_RELAY_BEHIND_PROXY),
    webRoot: webRoot ? existingDirectory(webRoot) : null,
  };
  const publicText = values["public-url"] ?? env.RINGBACK_RELAY_PUBLIC_URL;
  if (publicText !== undefined && publicText.trim() !== "")
    Object.assign(config, { publicUrl: publicUrl(publicText) });
  const connectOrigins = values["web-connect-origins"] ?? env.RINGBACK_RELAY_WEB_CONNECT_ORIGINS;
  if (connectOrigins !== undefined)
    Object.assign(config, { webConnectOrigins: originList(connectOrigins, "--web-connect-origins") });
  return config;
}

/** Who push services may contact, and which push services the relay talks to. */
function pushConfig(values: RelayFlags, env: NodeJS.ProcessEnv): Partial<RelayConfig> {
  const config: Partial<RelayConfig> = {};
  const pushSubject = values["push-subject"] ?? env.RINGBACK_RELAY_PUSH_SUBJECT;
  if (pushSubject !== undefined) Object.assign(config, { pushSubject: vapidSubject(pushSubject) });
  const pushHosts = values["push-hosts"] ?? env.RINGBACK_RELAY_PUSH_HOSTS;
  if (pushHosts !== undefined) Object.assign(config, { pushHosts: hostList(pushHosts, "--push-hosts") });
  const trustedOrigins = values["push-trusted-origins"] ?? env.RINGBACK_RELAY_PUSH_TRUSTED_ORIGINS;
  if (trustedOrigins !== undefined) {
    Object.assign(config, {
      pushTrustedOrigins: originList(trustedOrigins, "--push-trusted-origins", { httpsOnly: true }),
    });
  }
  return config;
}

/** Durations, the limits an operator may move, and the disk space kept free. */
function limitConfig(values: RelayFlags, env: NodeJS.ProcessEnv): Partial<RelayConfig> {
  const config: Partial<RelayConfig> = {};
  const positive = {
    callExpiryMs: ["call-expiry-ms", env.RINGBACK_RELAY_CALL_EXPIRY_MS],
    heartbeatMs: ["heartbeat-ms", env.RINGBACK_RELAY_HEARTBEAT_MS],
    sseRetryMs: ["sse-retry-ms", env.RINGBACK_RELAY_SSE_RETRY_MS],
    settingsTimeoutMs: ["settings-timeout-ms", env.RINGBACK_RELAY_SETTINGS_TIMEOUT_MS],
    // Limits an operator may move (a relay for an organisation's many devices, the bench's 10,000 streams).
    devicesPerAccountMax: ["devices-per-account", env.RINGBACK_RELAY_DEVICES_PER_ACCOUNT],
    pairingsPerAccountMax: ["pairings-per-account", env.RINGBACK_RELAY_PAIRINGS_PER_ACCOUNT],
    streamsPerAccountMax: ["streams-per-account", env.RINGBACK_RELAY_STREAMS_PER_ACCOUNT],
    streamsPerAddressMax: ["streams-per-address", env.RINGBACK_RELAY_STREAMS_PER_ADDRESS],
    signupsPerAddressMax: ["signups-per-address", env.RINGBACK_RELAY_SIGNUPS_PER_ADDRESS],
  } as const;
  for (const [key, [flag, fromEnv]] of Object.entries(positive)) {
    const text = values[flag] ?? fromEnv;
    if (text !== undefined) Object.assign(config, { [key]: positiveInteger(text, `--${flag}`, 1) });
  }
  const diskFreeMin = values["disk-free-min-mb"] ?? env.RINGBACK_RELAY_DISK_FREE_MIN_MB;
  if (diskFreeMin !== undefined) {
    Object.assign(config, {
      diskFreeMinBytes: positiveInteger(diskFreeMin, "--disk-free-min-mb", 0) * 1024 * 1024,
    });
  }
  return config;
}

function hostList(text: string, name: string): string[] {
  const hosts = text
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== "");
  // Names only: an address (a loopback or private one above all) is what --push-trusted-origins is for.
  if (hosts.length === 0 || hosts.some((host) => !/^[a-z0-9.-]+$/.test(host) || isIP(host) !== 0))
    throw new RelayUsageError(`${name} must be a comma-separated list of host names (no addresses).`);
  return hosts;
}

/**
 * `https://host[:port]` origins (`http://` for this machine, unless `httpsOnly`), as a Content-Security-Policy source
 * and a URL's `origin` name them.
 */
function originList(text: string, name: string, options: { httpsOnly?: boolean } = {}): string[] {
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  return items.map((item) => {
    let url: URL | null = null;
    try {
      url = new URL(item);
    } catch {
      // Reported below.
    }
    const isLoopback = url !== null && /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(url.hostname);
    if (
      url === null ||
      !(url.protocol === "https:" || (url.protocol === "http:" && isLoopback && !options.httpsOnly)) ||
      url.origin !== item.replace(/\/$/, "").toLowerCase()
    )
      throw new RelayUsageError(
        `${name} must be a comma-separated list of origins (https://host[:port]${options.httpsOnly ? "" : ", or http:// for this machine"}).`,
      );
    return url.origin;
  });
}

function isTrue(value: string | undefined): boolean {
  return value !== undefined && TRUE_WORDS.has(value.trim().toLowerCase());
}

function positiveInteger(text: string, name: string, min: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < min)
    throw new RelayUsageError(`${name} must be a whole number >= ${min}.`);
  return value;
}

function port(text: string): number {
  const value = positiveInteger(text, "--port", 0);
  if (value > 65535) throw new RelayUsageError("--port must be at most 65535.");
  return value;
}

const POSTGRES_URL = /^postgres(ql)?:\/\//;

function databaseUrl(text: string | undefined): string | null {
  if (text === undefined || text.trim() === "") return null;
  // The URL may hold a password: the message never repeats it.
  if (!POSTGRES_URL.test(text.trim())) throw new RelayUsageError("--database must be a postgres:// URL.");
  return text.trim();
}

function vapidSubject(text: string): string {
  const subject = text.trim();
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) {
    throw new RelayUsageError("--push-subject must be a mailto: address or an https: URL.");
  }
  return subject;
}

function existingDirectory(path: string): string {
  const absolute = resolve(path);
  if (!existsSync(absolute)) throw new RelayUsageError(`--web-root ${absolute} does not exist.`);
  return absolute;
}
