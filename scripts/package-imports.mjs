// Whether a packed package installs what its built code needs: run by check-packages.mjs on each published package.
// tsup leaves the packages in `dependencies` and `peerDependencies` as imports and copies every other import into the
// bundle, so an import of a devDependency ships silently as a copy (@ringback/client once carried @ringback/brief's
// code that way, against the rule that a client depends on nothing daemon-side). So two findings:
// - a bare import left in dist/ (JavaScript or type declarations) of a package the manifest does not declare;
// - a module of another package copied into dist/ that tsup's `noExternal` does not ask for (the hook bundles
//   everything on purpose, the relay its patched postgres). esbuild names each module it copies in a `// path`
//   line, relative to the package's folder, in output that is not minified.
// Both run on the package as packed; tsup.config.ts is read as source, not run.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** The package a bare specifier names: `@scope/name` or `name`, without a sub-path. */
function packageNameOf(specifier) {
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

function isBuiltin(specifier) {
  return specifier.startsWith("node:") || builtinModules.includes(specifier);
}

function isBare(specifier) {
  return !specifier.startsWith(".") && !specifier.startsWith("/") && !/^[a-z][a-z0-9+.-]*:/i.test(specifier);
}

function filesUnder(folder) {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

const JAVASCRIPT = /\.[mc]?js$/;
const DECLARATIONS = /\.d\.[mc]?ts$/;

/** The name in the nearest package.json above a file that has one (a nested `{"type": ...}` file has none). */
function owningPackage(file) {
  for (let folder = dirname(file); folder !== dirname(folder); folder = dirname(folder)) {
    const manifestPath = join(folder, "package.json");
    if (!existsSync(manifestPath)) continue;
    const name = JSON.parse(readFileSync(manifestPath, "utf8")).name;
    if (typeof name === "string") return name;
  }
  return null;
}

/** A tsup config and the local modules it imports (a shared base), as TypeScript sees them: read, never run. */
function configSources(file, seen = new Set()) {
  if (seen.has(file) || !existsSync(file)) return [];
  seen.add(file);
  const text = readFileSync(file, "utf8");
  const local = ts
    .preProcessFile(text, true, true)
    .importedFiles.map((entry) => entry.fileName)
    .filter((specifier) => specifier.startsWith("."))
    .map((specifier) => resolve(dirname(file), specifier))
    .map((path) => (existsSync(path) ? path : path.replace(/\.js$/, ".ts")));
  return [
    ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true),
    ...local.flatMap((path) => configSources(path, seen)),
  ];
}

/**
 * tsup's options that bear on what is copied in: `noExternal` (bundled on purpose: string and regular-expression
 * literals) and `minify`, read from tsup.config.ts and the local modules it imports. A value that is not a literal
 * cannot be read this way, and says so.
 */
function bundling(sourceDir) {
  const noExternal = [];
  const problems = [];
  let minify = false;
  for (const source of configSources(join(sourceDir, "tsup.config.ts"))) {
    const visit = (node) => {
      if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)) {
        const value = node.initializer;
        if (node.name.text === "minify" && value.kind !== ts.SyntaxKind.FalseKeyword) minify = true;
        if (node.name.text === "noExternal") {
          const patterns = ts.isArrayLiteralExpression(value) ? [...value.elements] : [value];
          for (const pattern of patterns) {
            if (ts.isStringLiteral(pattern)) noExternal.push(pattern.text);
            else if (pattern.kind === ts.SyntaxKind.RegularExpressionLiteral) {
              const [, body, flags] = /^\/(.*)\/([a-z]*)$/s.exec(pattern.text) ?? [];
              noExternal.push(new RegExp(body ?? "", flags));
            } else problems.push(`noExternal in ${source.fileName} is not a literal (${pattern.getText()})`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { noExternal, minify, problems };
}

function isBundledOnPurpose(name, noExternal) {
  return noExternal.some((pattern) =>
    pattern instanceof RegExp ? pattern.test(name) : pattern === name || name.startsWith(`${pattern}/`),
  );
}

/**
 * The findings for one package: `sourceDir` is its folder in the workspace (where it was built), `unpackedDir` its
 * packed tarball unpacked (the manifest as published, `workspace:` ranges replaced, and the files npm installs).
 */
export function undeclaredImports({ sourceDir, unpackedDir }) {
  const manifest = JSON.parse(readFileSync(join(unpackedDir, "package.json"), "utf8"));
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const only = (name) =>
    name in (manifest.devDependencies ?? {}) ? "declared only in devDependencies" : "not declared at all";
  const { noExternal, minify, problems } = bundling(sourceDir);
  const findings = problems.map(
    (problem) => `${manifest.name}: ${problem}, so what is bundled on purpose is unknown`,
  );
  if (minify)
    findings.push(`${manifest.name}: tsup minifies, so what it copies into dist/ cannot be checked`);

  for (const file of filesUnder(join(unpackedDir, "dist"))) {
    const isJavaScript = JAVASCRIPT.test(file);
    if (!isJavaScript && !DECLARATIONS.test(file)) continue;
    const shown = relative(unpackedDir, file);
    const text = readFileSync(file, "utf8");
    const imported = new Set(
      ts
        .preProcessFile(text, true, true)
        .importedFiles.map((entry) => entry.fileName)
        .filter((specifier) => isBare(specifier) && !isBuiltin(specifier)),
    );
    for (const specifier of imported) {
      const name = packageNameOf(specifier);
      if (!declared.has(name))
        findings.push(`${manifest.name}: ${shown} imports "${specifier}", but ${name} is ${only(name)}`);
    }
    if (!isJavaScript) continue;
    const copied = new Map();
    for (const [, path] of text.matchAll(/^\/\/ (\S+)$/gm)) {
      const source = resolve(sourceDir, path);
      if (!existsSync(source)) continue;
      const name = owningPackage(source);
      if (name && name !== manifest.name && !isBundledOnPurpose(name, noExternal) && !copied.has(name))
        copied.set(name, path);
    }
    for (const [name, path] of copied)
      findings.push(
        `${manifest.name}: ${shown} carries a copy of ${name} (${path}), which is ${only(name)}: a runtime ` +
          "import belongs in dependencies, or in tsup's noExternal when bundling it is the point",
      );
  }
  return findings;
}
