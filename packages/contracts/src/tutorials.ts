// How-to articles shipped with the app (docs/product.md §3.15 /tutorials): Markdown files with front matter,
// listed and searched by the server, rendered as Markdown without raw HTML on the web.
import { z } from 'zod';
import { listQuery, paginated } from './lists.ts';
import { text } from './primitives.ts';

/** Who an article (and an onboarding track) is for; derived from a user's permissions. */
export const HELP_AUDIENCE_VALUES = ['requester', 'approver', 'finance', 'admin'] as const;
export type HelpAudience = (typeof HELP_AUDIENCE_VALUES)[number];
export const helpAudience = z.enum(HELP_AUDIENCE_VALUES);

export const HELP_AUDIENCE_LABELS: Record<HelpAudience, string> = {
  requester: 'Requesters',
  approver: 'Approvers',
  finance: 'Finance',
  admin: 'Administrators',
};

/** What a Markdown file's front matter must say; a file that does not fit stops the server at start-up. */
export const tutorialFrontMatter = z.object({
  title: z.string().trim().min(3).max(120),
  summary: z.string().trim().min(10).max(300),
  roles: z.array(helpAudience).min(1),
  tags: z.array(z.string().trim().min(1).max(40)).max(12).default([]),
  /** Position in the unsearched list (lower first); articles without one follow by title. */
  order: z.number().int().min(0).max(1000).optional(),
});
export type TutorialFrontMatter = z.infer<typeof tutorialFrontMatter>;

/** An article's file name without `.md`, which is also its address: `/tutorials?article=<slug>`. */
export const tutorialSlug = z
  .string()
  .trim()
  .max(100)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Not a valid article');
export const tutorialParams = z.object({ slug: tutorialSlug });

export const tutorialSummary = z.object({
  slug: z.string(),
  title: z.string(),
  summary: z.string(),
  roles: z.array(helpAudience),
  tags: z.array(z.string()),
  readingMinutes: z.number().int(),
  /** When the caller first opened the article; null when never. */
  readAt: z.string().nullable(),
  /** With a search: the sentence of the body that matched best (plain text), else null. */
  excerpt: z.string().nullable(),
});
export type TutorialSummary = z.infer<typeof tutorialSummary>;

export const tutorialHeading = z.object({ depth: z.number().int().min(2).max(3), text: z.string(), id: z.string() });
export type TutorialHeading = z.infer<typeof tutorialHeading>;

export const tutorialDetail = tutorialSummary.extend({
  /** Markdown; shown without raw HTML. */
  body: z.string(),
  headings: z.array(tutorialHeading),
  related: z.array(tutorialSummary),
});
export type TutorialDetail = z.infer<typeof tutorialDetail>;

export const tutorialListQuery = listQuery.extend({
  q: text.trim().max(200).optional(),
  role: helpAudience.optional(),
  tag: text.trim().max(40).optional(),
  pageSize: z.coerce.number().int().min(1).max(100).default(50),
});
export type TutorialListQuery = z.infer<typeof tutorialListQuery>;

export const tutorialList = paginated(tutorialSummary).extend({ tags: z.array(z.string()) });
export type TutorialList = z.infer<typeof tutorialList>;

/**
 * The anchor of a heading: lower case, letters and digits joined by dashes. The server lists
 * headings with it and the article view gives each heading the same id.
 */
export function headingId(heading: string): string {
  return (
    heading
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}
