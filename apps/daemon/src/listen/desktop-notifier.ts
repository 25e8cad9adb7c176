import { spawn } from "node:child_process";
import { access, constants } from "node:fs/promises";
import { delimiter, join } from "node:path";

/** Shows a desktop notification for a ringing call. */
export interface DesktopNotifier {
  notify(title: string, body: string): void;
}

/** `notify-send` where the PATH has it (libnotify, on most Linux desktops); null where it does not. */
export async function findDesktopNotifier(env: NodeJS.ProcessEnv): Promise<DesktopNotifier | null> {
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    const command = join(dir, "notify-send");
    try {
      await access(command, constants.X_OK);
    } catch {
      continue;
    }
    return {
      notify(title, body) {
        // A notification that cannot be shown (no session bus) never stops the terminal from ringing.
        const child = spawn(command, ["--app-name=Ringback", "--urgency=critical", title, body], {
          stdio: "ignore",
          env,
        });
        child.on("error", () => undefined);
        child.unref();
      },
    };
  }
  return null;
}
