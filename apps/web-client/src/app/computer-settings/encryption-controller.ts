import { type ComputerProblem, computerProblemOf, formProblem, Observable } from "@ringback/client";
import type { ComputerTexts } from "@ringback/client/texts";
import { isPassphraseLongEnough } from "@ringback/protocol";
import type { ComputerKeyCheck } from "./computer-key.js";

/** What Settings › Encryption asks of the app: its `ComputerKey`. */
export interface EncryptionKeyOwner {
  changeKey(phrase: string): Promise<ComputerKeyCheck>;
  checkComputerKey(): Promise<ComputerKeyCheck>;
}

export interface EncryptionView {
  readonly busy: "deriving" | "checking" | null;
  /** Whether the computer uses this device's key, as last checked. */
  readonly check: ComputerKeyCheck | null;
  readonly problem: ComputerProblem | null;
}

/**
 * Settings › Encryption (spec: Encryption settings screen): one phrase of at least 12 characters (counted after
 * NFC, as the key derivation counts them) becomes this device's key; neither the key nor its id is shown. The
 * result says whether the computer already uses the same key: its own key can only be changed on it.
 */
export class EncryptionController extends Observable<EncryptionView> {
  constructor(private readonly owner: EncryptionKeyOwner) {
    super({ busy: null, check: null, problem: null });
  }

  /** A phrase under 12 characters is refused before any key is derived or replaced. */
  async change(phrase: string): Promise<void> {
    if (!isPassphraseLongEnough(phrase)) {
      this.update({ problem: formProblem("phrase-too-short"), check: null });
      return;
    }
    await this.#run("deriving", () => this.owner.changeKey(phrase));
  }

  async check(): Promise<void> {
    await this.#run("checking", () => this.owner.checkComputerKey());
  }

  async #run(busy: EncryptionView["busy"], action: () => Promise<ComputerKeyCheck>): Promise<void> {
    this.update({ busy, problem: null, check: null });
    try {
      this.update({ check: await action() });
    } catch (error) {
      this.update({ problem: computerProblemOf(error) });
    } finally {
      this.update({ busy: null });
    }
  }
}

/** The sentence for a key check. */
export function keyCheckText(check: ComputerKeyCheck, t: ComputerTexts): string {
  switch (check) {
    case "matches":
      return t.keyMatches;
    case "differs":
      return t.keyDiffers;
    case "offline":
      return t.keyOffline;
    case "no-computer":
      return t.keyNoComputer;
  }
}
