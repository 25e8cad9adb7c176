import { parseArgs } from "node:util";

/** A bad option: the message is for the person who typed it; exit code 2. */
export class StartUsageError extends Error {
  name = "StartUsageError";
}

const OPTIONS = {
  lan: { type: "boolean" },
  "lan-address": { type: "string" },
  port: { type: "string" },
  "ca-port": { type: "string" },
  "daemon-port": { type: "string" },
  help: { type: "boolean" },
};
const DEFAULT_RELAY_PORT = 8787;
const DEFAULT_DAEMON_PORT = 8790;

/**
 * The ports the Fetch standard blocks ("bad ports"): browsers and Node's fetch refuse to connect to them, so a relay
 * or daemon there is unreachable with a bare "fetch failed".
 */
const FETCH_BLOCKED_PORTS = new Set([
  1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/** `pnpm start --help`; `command` is how this person runs it (`npx --yes pnpm@10.34.9 start` in a clone). */
export function startHelp(command) {
  return `Usage: ${command} [options]

Builds and starts the Ringback relay (serving the web app) and the daemon on this computer, creates your account on
the first run, and prints how to pair a browser or a phone and the command that makes it ring.

  (no options)        on 127.0.0.1: for this computer's browser only (a phone cannot reach it)
  --lan               on this computer's network address over HTTPS, with a certificate authority of its own, so
                      a phone on the same network can pair and ring (it trusts the CA once; the steps are printed)
  --lan-address IP    the network address for --lan (default: the first one besides loopback); implies --lan
  --port PORT         the relay's port (default ${DEFAULT_RELAY_PORT}, or RINGBACK_RELAY_PORT; 0 for any free one)
  --ca-port PORT      with --lan, the plain-HTTP page that hands out the CA (default: the relay's port + 1,
                      or RINGBACK_CA_PORT)
  --daemon-port PORT  the daemon's port on 127.0.0.1 (default: localPort in RINGBACK_HOME/daemon.json, else
                      ${DEFAULT_DAEMON_PORT}; or RINGBACK_PORT). The daemon saves it as localPort in daemon.json, the one place the
                      installed hooks, pnpm ring and ringback doctor read it from
  --help              this text

The daemon keeps its data in RINGBACK_HOME (default ~/.ringback), the relay in RINGBACK_RELAY_DATA (default
~/.ringback-relay). A phone anywhere, not only on this network: a relay on a server behind HTTPS, see the README
(Ring a real phone).
`;
}

function port(text, name, suggestion) {
  const value = Number(text);
  if (text.trim() === "" || !Number.isInteger(value) || value < 0 || value > 65535)
    throw new StartUsageError(
      `${name} must be a port number from 0 to 65535 (0: any free one), not "${text}"`,
    );
  if (FETCH_BLOCKED_PORTS.has(value))
    throw new StartUsageError(
      `${name} ${value} is a port browsers and Node.js refuse to connect to (a "bad port" of the Fetch standard): ` +
        `choose another, such as ${name} ${suggestion}`,
    );
  return value;
}

/** A warning for a --lan-address a phone cannot reach; null for one it can. */
export function lanAddressWarning(address) {
  if (address === undefined || !/^127\./.test(address)) return null;
  return (
    `--lan-address ${address} is this computer's loopback address: a phone cannot reach it, only this computer ` +
    "can. Leave --lan-address out to use the computer's network address, or give that address"
  );
}

/** The options of `pnpm start`: flags win over the environment, which wins over the defaults. */
export function parseStartOptions(argv, env) {
  // Tokens, not strict mode: each mistake gets its own line here, without matching Node's message texts.
  const { tokens } = parseArgs({
    args: argv,
    options: OPTIONS,
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values = {};
  for (const token of tokens) {
    if (token.kind === "positional") throw new StartUsageError(`unexpected argument "${token.value}"`);
    if (token.kind !== "option") continue;
    const option = OPTIONS[token.name];
    if (option === undefined) throw new StartUsageError(`unknown option ${token.rawName}`);
    if (option.type === "string" && token.value === undefined)
      throw new StartUsageError(`${token.rawName} needs a value`);
    if (option.type === "boolean" && token.value !== undefined)
      throw new StartUsageError(`${token.rawName} takes no value`);
    values[token.name] = token.value ?? true;
  }
  const portText = values.port ?? env.RINGBACK_RELAY_PORT;
  const relayPort =
    portText === undefined ? DEFAULT_RELAY_PORT : port(portText, "--port", DEFAULT_RELAY_PORT);
  const caPortText = values["ca-port"] ?? env.RINGBACK_CA_PORT;
  const daemonPortText = values["daemon-port"] ?? env.RINGBACK_PORT;
  return {
    isHelp: values.help === true,
    isLan: values.lan === true || values["lan-address"] !== undefined,
    lanAddress: values["lan-address"],
    relayPort,
    caPort:
      caPortText === undefined
        ? relayPort === 0
          ? 0
          : relayPort + 1
        : port(caPortText, "--ca-port", DEFAULT_RELAY_PORT + 1),
    /** Undefined: the daemon's saved localPort. */
    daemonPort:
      daemonPortText === undefined || daemonPortText === ""
        ? undefined
        : port(daemonPortText, "--daemon-port", DEFAULT_DAEMON_PORT),
  };
}
