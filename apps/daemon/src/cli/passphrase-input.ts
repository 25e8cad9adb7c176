import { StartError } from "../runtime/start-error.js";

/** Everything on stdin, without the line break that ends it. */
export async function readPassphraseFromStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** Asks on the terminal without echoing what is typed; `withoutTerminal` is the error when there is none. */
export async function askPassphrase(
  withoutTerminal: string,
  question = "Passphrase of the account: ",
): Promise<string> {
  const input = process.stdin;
  if (!input.isTTY) throw new StartError(withoutTerminal);
  process.stderr.write(question);
  input.setRawMode(true);
  input.setEncoding("utf8");
  input.resume();
  return new Promise((resolve, reject) => {
    let typed = "";
    const finish = () => {
      input.off("data", onData);
      input.setRawMode(false);
      input.pause();
      process.stderr.write("\n");
    };
    const onData = (chunk: string) => {
      for (const character of chunk) {
        if (character === "\r" || character === "\n") {
          finish();
          resolve(typed);
          return;
        }
        if (character === "\u0003") {
          finish();
          reject(new StartError("cancelled"));
          return;
        }
        typed =
          character === "\u007f" || character === "\b" ? [...typed].slice(0, -1).join("") : typed + character;
      }
    };
    input.on("data", onData);
  });
}
