// What a companion on Node needs beside the main entry: kept apart so the main entry stays free of node: modules.
export * from "./node/file-key-value.js";
