import { StartError } from "../../runtime/start-error.js";
import { askPassphrase, readPassphraseFromStdin } from "../passphrase-input.js";

/** Options that would put the key on the command line, where the shell's history and `ps` would keep it. */
const KEY_OPTIONS = ["--key", "--api-key", "--apiKey"];

/** Refuses a key given as an argument, saying how to give it instead. */
export function refuseKeyArgument(args: readonly string[]): void {
  if (
    args.some((argument) =>
      KEY_OPTIONS.some((option) => argument === option || argument.startsWith(`${option}=`)),
    )
  )
    throw new StartError(
      "the API key is never an argument (the shell's history and ps would keep it): type it at the prompt, or pipe it on stdin: ringback model set ... < key-file",
    );
}

/**
 * The API key: typed at a prompt that does not echo it, or read from stdin when stdin is not a terminal. Empty
 * (Enter at the prompt, nothing piped): undefined, and the daemon keeps the saved key for the same address.
 */
export async function readApiKey(): Promise<string | undefined> {
  const key = process.stdin.isTTY
    ? await askPassphrase("", "API key of the model (Enter keeps the saved one): ")
    : await readPassphraseFromStdin();
  const trimmed = key.trim();
  return trimmed === "" ? undefined : trimmed;
}
