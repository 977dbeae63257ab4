import type { ReactNode } from 'react';
import Markdown, { type Components } from 'react-markdown';
import { headingId } from '@outlay/contracts/tutorials';

function textOf(node: ReactNode): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  if (node && typeof node === 'object' && 'props' in node)
    return textOf((node.props as { children?: ReactNode }).children);
  return '';
}

// Raw HTML in an article is never rendered (react-markdown leaves it out without rehype-raw),
// and links keep react-markdown's safe-URL filter; headings get the ids the server lists.
const COMPONENTS: Components = {
  h1: ({ children }) => <h2 className="mt-8 text-xl font-semibold">{children}</h2>,
  h2: ({ children }) => (
    <h2 id={headingId(textOf(children))} className="mt-8 scroll-mt-20 text-xl font-semibold tracking-tight first:mt-0">
      {children}
    </h2>
  ),
  h3: ({ children }) => (
    <h3 id={headingId(textOf(children))} className="mt-6 scroll-mt-20 text-base font-semibold">
      {children}
    </h3>
  ),
  p: ({ children }) => <p className="mt-3 leading-7">{children}</p>,
  ul: ({ children }) => <ul className="mt-3 list-disc space-y-1.5 pl-6 leading-7">{children}</ul>,
  ol: ({ children }) => <ol className="mt-3 list-decimal space-y-1.5 pl-6 leading-7">{children}</ol>,
  a: ({ href, children }) => (
    <a href={href} className="font-medium text-primary underline underline-offset-2">
      {children}
    </a>
  ),
  code: ({ children }) => <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]">{children}</code>,
  pre: ({ children }) => <pre className="mt-3 overflow-x-auto rounded-md bg-muted p-3 text-sm">{children}</pre>,
  blockquote: ({ children }) => (
    <blockquote className="mt-3 border-l-4 pl-4 text-muted-foreground">{children}</blockquote>
  ),
  strong: ({ children }) => <strong className="font-semibold text-foreground">{children}</strong>,
};

export function ArticleMarkdown({ source }: { source: string }) {
  return (
    <div className="text-[0.95rem] text-foreground/90" data-testid="article-body">
      <Markdown components={COMPONENTS} skipHtml>
        {source}
      </Markdown>
    </div>
  );
}
