/**
 * The environment of a `ringback` daemon or command under test: its own home as HOME and RINGBACK_HOME, nothing of
 * the developer's RINGBACK_* or home, and no gathering window unless `extra` sets one (each finished call goes to the
 * relay as soon as its brief is written). `extra` adds to it.
 */
export function daemonTestEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: home,
    LANG: "en_US.UTF-8",
    RINGBACK_HOME: home,
    RINGBACK_GATHER_SECONDS: "0",
    ...extra,
  };
}
