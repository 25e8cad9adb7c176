import { StartError } from "../runtime/start-error.js";

/** Ports under this one are the system's (binding them needs administrator rights on Linux). */
const FIRST_USER_PORT = 1024;

/**
 * The ports from 1024 up that the Fetch standard blocks ("bad ports"): Node's fetch, which the hooks and `pnpm ring`
 * use, refuses to connect to them, so a daemon there is unreachable with a bare "fetch failed".
 */
const FETCH_BLOCKED_USER_PORTS = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697,
  10080,
]);

/** The daemon's port as `ringback run --port` or RINGBACK_PORT gives it, refused with the reason before anything starts. */
export function parseDaemonPort(text: string | undefined, name: string): number | undefined {
  if (text === undefined || text === "") return undefined;
  const port = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  const another = "such as 8790, the default";
  if (!Number.isInteger(port) || port > 65535)
    throw new StartError(
      `${name} must be a port number from ${FIRST_USER_PORT} to 65535 (0: any free one, for this run only), not "${text}"`,
    );
  if (port !== 0 && port < FIRST_USER_PORT)
    throw new StartError(
      `${name} ${port} is one of the system's ports (under ${FIRST_USER_PORT}: they need administrator rights, and ` +
        `browsers and Node.js refuse several of them): choose one from ${FIRST_USER_PORT} to 65535, ${another}`,
    );
  if (FETCH_BLOCKED_USER_PORTS.has(port))
    throw new StartError(
      `${name} ${port} is a port Node.js refuses to connect to (a "bad port" of the Fetch standard), so the hooks ` +
        `could not reach the daemon: choose another, ${another}`,
    );
  return port;
}
