/** A problem the person running `install`/`uninstall` must fix; nothing was changed in the file it names. */
export class InstallerError extends Error {
  override readonly name = "InstallerError";
}
