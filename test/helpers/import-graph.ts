/**
 * The import graph of `src/`, read with the TypeScript parser: every static `import`/`export
 * ... from`, `import("...")` (in code and in types), `require("...")` and
 * `new URL("...", import.meta.url)` (how workers are started). Type-only imports count: a
 * layer that names another's types depends on it too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

export interface ImportEdge {
  /** The importing file, relative to the repository, with "/" separators. */
  from: string;
  /** What the file wrote. */
  specifier: string;
  /** The imported file (relative to the repository) when the specifier is relative, else null. */
  file: string | null;
  /** The package a bare specifier names ("node:fs" for a Node built-in), else null. */
  pkg: string | null;
}

export interface ImportGraph {
  /** Every source file under the root, relative to the repository. */
  files: string[];
  edges: ImportEdge[];
  /** Dynamic imports whose specifier is not a literal: the graph cannot follow them. */
  unresolvable: { from: string; text: string }[];
  /** Relative specifiers naming no file. */
  missing: ImportEdge[];
}

const SOURCE = /\.(ts|tsx|js|mjs|cjs|mts|cts)$/;

export function readImportGraph(repo: string, root = "src"): ImportGraph {
  const files = listFiles(join(repo, root)).map((f) => toRepoPath(repo, f));
  const graph: ImportGraph = { files, edges: [], unresolvable: [], missing: [] };
  for (const file of files) {
    for (const found of importsOf(join(repo, file))) {
      if (found.specifier === null) {
        graph.unresolvable.push({ from: file, text: found.text });
        continue;
      }
      const edge = toEdge(repo, file, found.specifier);
      graph.edges.push(edge);
      if (edge.file !== null && !isFile(join(repo, edge.file))) graph.missing.push(edge);
    }
  }
  return graph;
}

/** The package a bare specifier names: "@scope/name", "name", or "node:x" for a built-in. */
export function packageOf(specifier: string): string {
  if (specifier.startsWith("node:")) return specifier;
  const parts = specifier.split("/");
  const name = specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
  return builtinModules.includes(name) ? `node:${name}` : name;
}

function toEdge(repo: string, from: string, specifier: string): ImportEdge {
  if (!specifier.startsWith(".")) return { from, specifier, file: null, pkg: packageOf(specifier) };
  const target = resolve(repo, dirname(from), specifier.replace(/[?#].*$/, ""));
  // A worker's `new URL("./x.js", import.meta.url)` names the module tsc emits from x.ts (and bundlers resolve to it).
  const source = target.replace(/\.js$/, ".ts");
  return { from, specifier, file: toRepoPath(repo, !isFile(target) && isFile(source) ? source : target), pkg: null };
}

/** A specifier as written (null when it is not a literal) and the code that holds it. */
interface Found {
  specifier: string | null;
  text: string;
}

function importsOf(path: string): Found[] {
  const kind = path.endsWith(".tsx") ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, kind);
  const found: Found[] = [];
  const literal = (node: ts.Node | undefined): string | null =>
    node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : null;
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      found.push({ specifier: literal(node.moduleSpecifier), text: node.moduleSpecifier.getText() });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      found.push({ specifier: literal(node.argument.literal), text: node.argument.getText() });
    } else if (ts.isCallExpression(node) && isImportOrRequire(node) && node.arguments[0]) {
      found.push({ specifier: literal(node.arguments[0]), text: node.getText() });
    } else if (ts.isNewExpression(node) && isModuleUrl(node)) {
      found.push({ specifier: literal(node.arguments![0]), text: node.getText() });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isImportOrRequire(call: ts.CallExpression): boolean {
  return call.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(call.expression) && call.expression.text === "require");
}

/** `new URL(x, import.meta.url)`: a module (or worker) located next to this file. */
function isModuleUrl(node: ts.NewExpression): boolean {
  const [, base] = node.arguments ?? [];
  return ts.isIdentifier(node.expression) && node.expression.text === "URL" && base !== undefined && base.getText() === "import.meta.url";
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return listFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function toRepoPath(repo: string, path: string): string {
  return relative(repo, path).split("\\").join("/");
}
