import { stat } from "node:fs/promises";
import { join } from "node:path";
import { secretFiles } from "../secrets/held-secrets.js";
import { type DoctorCheck, ok, warn } from "./doctor-check.js";

/** Read or write bits for the group or for others. */
const OTHERS_MAY_READ = 0o077;

/**
 * Each file in the data dir that holds a secret (HELD_SECRETS), by its mode: one the group or others may read is a
 * warning naming the file, what it holds and the `chmod 600` that fixes it (the daemon also sets 600 on daemon.json
 * at its start). A file that is not there yet holds nothing.
 */
export async function checkSecretFiles(dataDir: string): Promise<DoctorCheck> {
  const open: { path: string; mode: string; holds: string[] }[] = [];
  const checked: string[] = [];
  for (const [file, secrets] of secretFiles()) {
    const path = join(dataDir, file);
    const mode = await stat(path).then(
      (stats) => stats.mode & 0o777,
      () => null,
    );
    if (mode === null) continue;
    checked.push(file);
    if ((mode & OTHERS_MAY_READ) !== 0) {
      open.push({ path, mode: mode.toString(8), holds: secrets.map((secret) => secret.name) });
    }
  }
  if (open.length === 0) {
    const files = checked.length > 0 ? checked.join(" and ") : "no file holds a secret yet";
    return ok("secret-files", `readable by this user only: ${files}`, { files: checked });
  }
  const said = open.map((file) => `${file.path} (mode ${file.mode}, holds the ${file.holds.join(", ")})`);
  return warn(
    "secret-files",
    `other users of this computer may read ${said.join("; ")}`,
    `chmod 600 ${open.map((file) => quoted(file.path)).join(" ")}`,
    { open },
  );
}

/** A path as a shell reads it back: quoted when it has anything but safe characters. */
function quoted(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replaceAll("'", "'\\''")}'`;
}
