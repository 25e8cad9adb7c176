import type { Options } from "tsup";

/**
 * The build every library package and fake shares: ESM with type declarations from `src/index.ts` into a clean
 * `dist/`. Each package's tsup.config.ts passes what differs: its platform (`neutral` for code that must also run
 * in browsers), and any other entry, target or tsconfig.
 */
export function libraryBuild(options: Options & Required<Pick<Options, "platform">>): Options {
  return { entry: ["src/index.ts"], format: ["esm"], dts: true, clean: true, target: "es2023", ...options };
}
