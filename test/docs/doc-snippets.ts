/**
 * The docs' TypeScript and JavaScript snippets, type-checked against the package's sources:
 * each ```ts / ```typescript / ```js block of README.md and docs/*.md becomes a module of one
 * TypeScript program with the repository's tsconfig (whose `paths` map `babylon-skybox` and
 * its subpaths to src/), plus snippet-context.d.ts for the app's own objects. A block marked
 * ```ts nocheck is left out on purpose.
 */
import { join } from "node:path";
import ts from "typescript";
import { codeBlocksOf, docFiles, readDoc, ROOT } from "./doc-files.ts";

const CHECKED = new Set(["ts", "typescript", "js", "javascript", "mjs"]);
const CONTEXT = join(ROOT, "test/docs/snippet-context.d.ts");

/** A snippet as a module: its source file's name, the doc line it starts on, its code. */
export interface Snippet {
  doc: string;
  line: number;
  fileName: string;
  code: string;
}

/** Every checked snippet of the docs under `root` (blocks marked `nocheck` left out). */
export function snippetsOf(root = ROOT): Snippet[] {
  return docFiles(root).flatMap((doc) =>
    codeBlocksOf(readDoc(doc, root))
      .filter((b) => CHECKED.has(b.lang) && !b.flags.includes("nocheck"))
      .map((b) => ({
        doc,
        line: b.line,
        // Beside the repository's own files, so node_modules and tsconfig paths resolve as for the tests.
        fileName: join(ROOT, "test/docs/.snippets", `${root === ROOT ? "" : "other_"}${doc.replace(/[/.]/g, "_")}_${b.line}.ts`),
        // `export {}` makes a snippet without imports a module too: its names stay its own.
        code: `${b.code}\nexport {};\n`,
      })),
  );
}

/** The type errors of `snippets`, as `doc:line: message` with the line in the doc. */
export function snippetErrors(snippets: Snippet[]): string[] {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  )!;
  const byName = new Map(snippets.map((s) => [s.fileName, s]));
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    const snippet = byName.get(name);
    return snippet ? ts.createSourceFile(name, snippet.code, language, true) : getSourceFile(name, language, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => byName.has(name) || fileExists(name);
  const program = ts.createProgram({ rootNames: [CONTEXT, ...byName.keys()], options: { ...config.options, noEmit: true }, host });
  return snippets.flatMap((snippet) => {
    const file = program.getSourceFile(snippet.fileName)!;
    return [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)].map((d) => {
      const line = d.start === undefined ? 0 : file.getLineAndCharacterOfPosition(d.start).line;
      return `${snippet.doc}:${snippet.line + line}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
  });
}
