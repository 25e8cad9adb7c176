import { createReadStream } from "node:fs";
import { createServer } from "node:http";
import { basename } from "node:path";
import type { PackedPackage } from "./packed-packages.ts";

export interface LocalRegistry extends AsyncDisposable {
  readonly url: string;
  /** Every path asked for, in order: proof of what npm took from here. */
  readonly requests: string[];
}

/**
 * An npm registry on 127.0.0.1 that knows only the packed tarballs: npm is pointed at it for the `@ringback` scope
 * (`--@ringback:registry`), so every @ringback package it installs is one of these, never one from the internet;
 * any other name is 404 here.
 */
export async function startLocalRegistry(packages: readonly PackedPackage[]): Promise<LocalRegistry> {
  const requests: string[] = [];
  const byName = new Map(packages.map((entry) => [entry.name, entry]));
  const byFile = new Map(packages.map((entry) => [basename(entry.tarball), entry]));
  const server = createServer((request, response) => {
    const path = decodeURIComponent((request.url ?? "/").split("?")[0] ?? "/");
    requests.push(path);
    const file = /^\/-\/(.+\.tgz)$/.exec(path)?.[1];
    if (file) {
      const entry = byFile.get(file);
      if (!entry) return response.writeHead(404).end();
      response.writeHead(200, { "content-type": "application/octet-stream" });
      createReadStream(entry.tarball).pipe(response);
      return;
    }
    const entry = byName.get(path.slice(1));
    if (!entry)
      return response.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    const address = server.address();
    const origin = typeof address === "object" && address ? `http://127.0.0.1:${address.port}` : "";
    const packument = {
      name: entry.name,
      "dist-tags": { latest: entry.version },
      versions: {
        [entry.version]: {
          ...entry.manifest,
          dist: {
            tarball: `${origin}/-/${basename(entry.tarball)}`,
            integrity: entry.integrity,
            shasum: entry.shasum,
          },
        },
      },
    };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(packument));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  return {
    url,
    requests,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
