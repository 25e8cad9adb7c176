/*
 * The nginx configuration in front of several relay instances, as apps/relay/README.md shows it. Node builtins
 * only (none at all, in fact), so the bench (plain `node bench/*.ts`) can load it as well as vitest.
 */

/** One relay instance an upstream sends to; a `backup` one only gets requests when the others fail. */
interface UpstreamServer {
  readonly port: number;
  readonly isBackup?: boolean;
}

/** A `server` block: nginx listens on 127.0.0.1:`port` and proxies everything to `upstream`. */
export interface NginxListener {
  readonly name: string;
  readonly port: number;
  readonly upstream: readonly UpstreamServer[];
}

export interface NginxConfigOptions {
  /** Everything nginx writes (pid, logs, temp files) goes under this directory. */
  readonly dir: string;
  readonly listeners: readonly NginxListener[];
  /** Seconds a failed instance is left out before nginx tries it again. */
  readonly failTimeoutSeconds?: number;
  /** The bench turns the access log off: a line per request is not what it measures. */
  readonly hasAccessLog?: boolean;
}

/** `worker_connections` counts both sides of each proxied connection: 1,000 SSE streams need 2,000. */
const WORKER_CONNECTIONS = 8192;

/** The relay part (`upstream` and `server` blocks) that belongs in a real nginx's `http {}` block. */
export function relayHttpBlock(listeners: readonly NginxListener[], failTimeoutSeconds = 10): string {
  const blocks: string[] = [
    "# The daemon link is a WebSocket: pass the upgrade on. Plain requests (JSON, SSE) send no Upgrade header",
    '# and get "Connection: " (empty), which keeps the upstream connection reusable.',
    "map $http_upgrade $connection_upgrade {",
    "    default upgrade;",
    "    ''      '';",
    "}",
  ];
  for (const listener of listeners) {
    const servers = listener.upstream.map(
      (server) =>
        `    server 127.0.0.1:${server.port} max_fails=1 fail_timeout=${failTimeoutSeconds}s${server.isBackup ? " backup" : ""};`,
    );
    blocks.push(
      "",
      `upstream ${listener.name} {`,
      ...servers,
      "    keepalive 32;",
      "}",
      "",
      "server {",
      `    listen 127.0.0.1:${listener.port};`,
      "    # Relayed settings bodies may reach 4 MiB.",
      "    client_max_body_size 5m;",
      "    location / {",
      `        proxy_pass http://${listener.name};`,
      "        proxy_http_version 1.1;",
      "        proxy_set_header Host $host;",
      "        # The relay (--behind-proxy) takes the last entry, the one nginx adds, as the client address.",
      "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
      "        # With TLS at nginx, the relay then sends Strict-Transport-Security on every answer.",
      "        proxy_set_header X-Forwarded-Proto $scheme;",
      "        proxy_set_header Upgrade $http_upgrade;",
      "        proxy_set_header Connection $connection_upgrade;",
      "        # SSE: every event goes out as soon as the relay writes it.",
      "        proxy_buffering off;",
      "        # A stream lasts up to an hour (heartbeat every 15 s); the daemon link is pinged every 15 s.",
      "        proxy_read_timeout 1h;",
      "        proxy_send_timeout 1h;",
      "    }",
      "}",
    );
  }
  return blocks.join("\n");
}

/** A whole nginx.conf that runs in the foreground with every path under `dir` (no /etc, no /var). */
export function nginxConfig(options: NginxConfigOptions): string {
  const { dir } = options;
  const accessLog = options.hasAccessLog === false ? "access_log off;" : `access_log ${dir}/access.log;`;
  const http = relayHttpBlock(options.listeners, options.failTimeoutSeconds);
  return [
    "daemon off;",
    "worker_processes 1;",
    `worker_rlimit_nofile ${WORKER_CONNECTIONS * 2};`,
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log notice;`,
    `events { worker_connections ${WORKER_CONNECTIONS}; }`,
    "http {",
    `    ${accessLog}`,
    `    client_body_temp_path ${dir}/temp/body;`,
    `    proxy_temp_path ${dir}/temp/proxy;`,
    `    fastcgi_temp_path ${dir}/temp/fastcgi;`,
    `    uwsgi_temp_path ${dir}/temp/uwsgi;`,
    `    scgi_temp_path ${dir}/temp/scgi;`,
    ...http.split("\n").map((line) => (line === "" ? "" : `    ${line}`)),
    "}",
    "",
  ].join("\n");
}
