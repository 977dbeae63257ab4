import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { marked, type Token } from 'marked';
import MiniSearch from 'minisearch';
import { parse as parseYaml } from 'yaml';
import {
  headingId,
  tutorialFrontMatter,
  tutorialSlug,
  type TutorialFrontMatter,
  type TutorialHeading,
} from '@outlay/contracts';
import { repoRoot } from '../../lib/paths.ts';

/** One shipped article, parsed once per process (the files are part of the release, not data). */
export interface Article extends TutorialFrontMatter {
  slug: string;
  body: string;
  /** The body as plain text: what search reads and excerpts come from. */
  plain: string;
  headings: TutorialHeading[];
  readingMinutes: number;
}

export function contentDir(): string {
  return path.join(repoRoot(), 'apps/api/content/tutorials');
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

function plainText(tokens: Token[]): string {
  const parts: string[] = [];
  for (const token of tokens) {
    if ('tokens' in token && token.tokens?.length) parts.push(plainText(token.tokens));
    else if (token.type === 'list') parts.push(plainText(token.items as Token[]));
    else if ('text' in token && typeof token.text === 'string') parts.push(token.text);
    if (token.type === 'heading' || token.type === 'paragraph' || token.type === 'list_item' || token.type === 'code')
      parts.push('\n');
  }
  return parts
    .join(' ')
    .replace(/[ \t]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{2,}/g, '\n')
    .trim();
}

/** Parses one file; a file that breaks the rules is a release mistake, so it throws with its name. */
export function parseArticle(file: string, source: string): Article {
  const slug = tutorialSlug.parse(path.basename(file, '.md'));
  const match = FRONT_MATTER.exec(source);
  if (!match) throw new Error(`${file}: no front matter`);
  const meta = tutorialFrontMatter.safeParse(parseYaml(match[1]!));
  if (!meta.success)
    throw new Error(`${file}: ${meta.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const body = source.slice(match[0].length).trim();
  const tokens = marked.lexer(body);
  const headings: TutorialHeading[] = [];
  for (const t of tokens) {
    if (t.type === 'heading' && (t.depth === 2 || t.depth === 3))
      headings.push({ depth: t.depth, text: t.text, id: headingId(t.text) });
  }
  const plain = plainText(tokens);
  const words = plain.split(/\s+/).filter(Boolean).length;
  return { ...meta.data, slug, body, plain, headings, readingMinutes: Math.max(1, Math.round(words / 200)) };
}

export interface Library {
  articles: Article[];
  bySlug: Map<string, Article>;
  index: MiniSearch<{ id: string; title: string; summary: string; tags: string; plain: string }>;
}

export function buildLibrary(dir = contentDir()): Library {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort();
  const articles = files.map((f) => parseArticle(f, readFileSync(path.join(dir, f), 'utf8')));
  articles.sort((a, b) => (a.order ?? 1000) - (b.order ?? 1000) || a.title.localeCompare(b.title));
  const index = new MiniSearch<{ id: string; title: string; summary: string; tags: string; plain: string }>({
    fields: ['title', 'summary', 'tags', 'plain'],
    searchOptions: { boost: { title: 3, tags: 2, summary: 2 }, prefix: true, fuzzy: 0.2, combineWith: 'AND' },
  });
  index.addAll(
    articles.map((a) => ({ id: a.slug, title: a.title, summary: a.summary, tags: a.tags.join(' '), plain: a.plain })),
  );
  return { articles, bySlug: new Map(articles.map((a) => [a.slug, a])), index };
}

let library: Library | null = null;
/** Read on first use and kept: every instance ships the same files. */
export function getLibrary(): Library {
  library ??= buildLibrary();
  return library;
}

/** The line of the body that holds most of the matched terms, shortened around the first. */
export function excerptOf(article: Article, terms: readonly string[]): string | null {
  if (terms.length === 0) return null;
  const lower = terms.map((t) => t.toLowerCase());
  let best: { line: string; score: number } | null = null;
  for (const line of article.plain.split('\n')) {
    const l = line.toLowerCase();
    const score = lower.filter((t) => l.includes(t)).length;
    if (score > 0 && (!best || score > best.score)) best = { line, score };
  }
  if (!best) return null;
  const at = Math.max(0, best.line.toLowerCase().indexOf(lower.find((t) => best.line.toLowerCase().includes(t))!) - 60);
  const cut = best.line.slice(at, at + 200).trim();
  return `${at > 0 ? '…' : ''}${cut}${at + 200 < best.line.length ? '…' : ''}`;
}
