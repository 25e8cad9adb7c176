import packageJson from "../package.json" with { type: "json" };

/** This bundle's version, for `ringback-hook --version`. */
export const HOOK_VERSION: string = packageJson.version;
