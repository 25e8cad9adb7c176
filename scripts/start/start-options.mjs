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
  help: { type: "boolean" },
};
const DEFAULT_RELAY_PORT = 8787;

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
  --help              this text

The daemon keeps its data in RINGBACK_HOME (default ~/.ringback), the relay in RINGBACK_RELAY_DATA (default
~/.ringback-relay). A phone anywhere, not only on this network: a relay on a server behind HTTPS, see the README
(Ring a real phone).
`;
}

function port(text, name) {
  const value = Number(text);
  if (text.trim() === "" || !Number.isInteger(value) || value < 0 || value > 65535)
    throw new StartUsageError(
      `${name} must be a port number from 0 to 65535 (0: any free one), not "${text}"`,
    );
  return value;
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
  const relayPort = portText === undefined ? DEFAULT_RELAY_PORT : port(portText, "--port");
  const caPortText = values["ca-port"] ?? env.RINGBACK_CA_PORT;
  return {
    isHelp: values.help === true,
    isLan: values.lan === true || values["lan-address"] !== undefined,
    lanAddress: values["lan-address"],
    relayPort,
    caPort: caPortText === undefined ? (relayPort === 0 ? 0 : relayPort + 1) : port(caPortText, "--ca-port"),
  };
}
