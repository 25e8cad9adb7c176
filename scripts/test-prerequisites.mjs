// Before `pnpm test`: the system programs the tests drive (Debian's Chromium for the browser tests, PostgreSQL's
// server binaries and nginx for the relay's multi-instance tests, Caddy and certutil for the HTTPS test, tmux for the
// agents' full-screen forms). Missing ones are installed with apt-get when this
// runs as root or with password-less sudo; otherwise it says exactly what to run, and the tests do not start.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const skipsPostgres = process.env.RINGBACK_SKIP_POSTGRES === "1";

const requirements = [
  { apt: "chromium", isPresent: () => existsSync(process.env.CHROMIUM_PATH ?? "/usr/bin/chromium") },
  { apt: "postgresql", isPresent: () => skipsPostgres || hasPostgresServer() },
  {
    apt: "nginx",
    isPresent: () => skipsPostgres || Boolean(process.env.RINGBACK_NGINX_BIN) || hasCommand("nginx"),
  },
  { apt: "caddy", isPresent: () => Boolean(process.env.CADDY_PATH) || hasCommand("caddy") },
  { apt: "libnss3-tools", isPresent: () => hasCommand("certutil") },
  { apt: "tmux", isPresent: () => hasCommand("tmux") },
];

function hasPostgresServer() {
  if (process.env.RINGBACK_POSTGRES_BIN) return true;
  const root = "/usr/lib/postgresql";
  return (
    existsSync(root) && readdirSync(root).some((version) => existsSync(join(root, version, "bin", "initdb")))
  );
}

function hasCommand(name) {
  const path = `${process.env.PATH ?? ""}:/usr/sbin:/sbin`;
  return path.split(":").some((folder) => folder && existsSync(join(folder, name)));
}

function run(command, args) {
  return (
    spawnSync(command, args, {
      stdio: ["ignore", "inherit", "inherit"],
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    }).status === 0
  );
}

const missing = requirements
  .filter((requirement) => !requirement.isPresent())
  .map((requirement) => requirement.apt);
if (missing.length > 0) {
  const install = ["apt-get", "install", "-y", "-qq", ...missing];
  const asRoot =
    process.getuid?.() === 0 ? [] : spawnSync("sudo", ["-n", "true"]).status === 0 ? ["sudo"] : null;
  if (asRoot === null) {
    process.stderr.write(
      `The tests need ${missing.join(", ")} (Debian packages). Install them, then run the tests again:\n` +
        `  sudo apt-get update && sudo ${install.join(" ")}\n` +
        "(RINGBACK_SKIP_POSTGRES=1 leaves the PostgreSQL and nginx tests out on purpose.)\n",
    );
    process.exit(1);
  }
  process.stdout.write(`Installing what the tests need: ${missing.join(", ")}\n`);
  const withRoot = (args) => (asRoot.length ? run("sudo", args) : run(args[0], args.slice(1)));
  if (!withRoot(["apt-get", "update", "-qq"]) || !withRoot(install)) {
    process.stderr.write(`Could not install ${missing.join(", ")} with apt-get (see above).\n`);
    process.exit(1);
  }
}
