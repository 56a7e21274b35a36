/**
 * The documentation a user reads: README.md and the guides in docs/, parsed with markdown-it
 * (so a link or a fence inside a code block is not mistaken for one outside it). The docs'
 * checks (links, pictures, snippets) read them through here.
 */
import GithubSlugger from "github-slugger";
import MarkdownIt, { type Token } from "markdown-it";
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");

/** README.md and every docs/*.md (the generated reference in docs/api/ is not a guide). */
export function docFiles(root = ROOT): string[] {
  const guides = readdirSync(join(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f));
  return ["README.md", ...guides.sort()];
}

/** One parsed Markdown file: its tokens, flattened (inline children included), with source lines. */
export interface DocFile {
  path: string;
  tokens: Token[];
}

const md = new MarkdownIt({ html: true });

/** Parses a Markdown text; `path` names it in messages. */
export function parseDoc(path: string, text: string): DocFile {
  const tokens: Token[] = [];
  let line = 0;
  for (const token of md.parse(text, {})) {
    if (token.map) line = token.map[0];
    tokens.push(token);
    // Inline children carry no line of their own: they take their block's.
    for (const child of token.children ?? []) tokens.push(Object.assign(child, { map: child.map ?? [line, line + 1] }));
  }
  return { path, tokens };
}

/** Reads and parses one documentation file, relative to the repository's root. */
export function readDoc(path: string, root = ROOT): DocFile {
  return parseDoc(path, readFileSync(join(root, path), "utf8"));
}

/** The 1-based line a token starts on. */
export const lineOf = (token: Token): number => (token.map?.[0] ?? 0) + 1;

/** GitHub's anchors of a file's headings (`## The sun light` → `the-sun-light`; repeats get -1, -2). */
export function anchorsOf(doc: DocFile): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  doc.tokens.forEach((token, i) => {
    if (token.type === "heading_open") anchors.add(slugger.slug(doc.tokens[i + 1]!.content.replace(/`/g, "")));
  });
  return anchors;
}

/** A link or an image of a doc: where it points and where it is written. */
export interface DocLink {
  kind: "link" | "image";
  target: string;
  line: number;
}

/** Every link and image of a doc, in order. */
export function linksOf(doc: DocFile): DocLink[] {
  const links: DocLink[] = [];
  for (const token of doc.tokens) {
    if (token.type === "link_open") links.push({ kind: "link", target: String(token.attrGet("href") ?? ""), line: lineOf(token) });
    if (token.type === "image") links.push({ kind: "image", target: String(token.attrGet("src") ?? ""), line: lineOf(token) });
  }
  return links;
}

/** A fenced code block: its language, the words after it (`nocheck`), its code and first line. */
export interface CodeBlock {
  lang: string;
  flags: string[];
  code: string;
  line: number;
}

/** Every fenced code block of a doc. */
export function codeBlocksOf(doc: DocFile): CodeBlock[] {
  return doc.tokens
    .filter((t) => t.type === "fence")
    .map((t) => {
      const [lang = "", ...flags] = t.info.trim().split(/\s+/);
      return { lang, flags, code: t.content, line: lineOf(t) + 1 };
    });
}
