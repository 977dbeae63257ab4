// Demo feature suggestions: a few ideas from staff in every status, with votes and a short
// discussion, so /feature-suggestions shows how the board is used.
import { inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { featureSuggestionComments, featureSuggestionVotes, featureSuggestions, users } from '../schema/index.ts';

interface DemoSuggestion {
  author: string;
  title: string;
  description: string;
  status: 'open' | 'under_review' | 'planned' | 'done' | 'declined';
  note?: string;
  daysAgo: number;
  voters: string[];
  comments?: [string, string][];
}

const SUGGESTIONS: DemoSuggestion[] = [
  {
    author: 'lukas',
    title: 'Approve requests from the notification e-mail',
    description:
      'When I travel I only read e-mail. A link in "Approval needed" that opens the decision directly (after signing in) would save a day on many requests.',
    status: 'planned',
    note: 'Planned for the next release, with sign-in and two-factor before the decision.',
    daysAgo: 40,
    voters: ['lukas', 'dana', 'james', 'khalid'],
    comments: [
      ['dana', 'Yes please, most of my queue waits while I am on the road.'],
      ['adam', 'Thanks, we will keep the decision inside the app so the audit trail stays complete.'],
    ],
  },
  {
    author: 'priya',
    title: 'Per-diem rates per country for travel',
    description:
      'Foods staff travel to suppliers abroad. A daily allowance per country would let people claim meals without a receipt for each coffee.',
    status: 'under_review',
    note: 'Looking at how this fits the Meals policy limits.',
    daysAgo: 25,
    voters: ['priya', 'leo', 'klara'],
  },
  {
    author: 'rita',
    title: 'Duplicate a previous request',
    description:
      'I order the same pallet wrap every month. A "copy" button on My Requests would fill the form with the last order.',
    status: 'done',
    note: 'Recurring requests (monthly or quarterly) now cover this on Advanced Request.',
    daysAgo: 90,
    voters: ['rita', 'max', 'yusuf'],
    comments: [['max', 'Recurring requests work well for the depot supplies, thanks!']],
  },
  {
    author: 'khalid',
    title: 'Dark mode',
    description: 'The IT team works late on month-end closes; a dark theme would be easier on the eyes.',
    status: 'open',
    daysAgo: 6,
    voters: ['khalid', 'yusuf'],
  },
  {
    author: 'felix',
    title: 'Pay vendors directly from Outlay',
    description: 'Send the payment to the bank from the aging report instead of exporting a file.',
    status: 'declined',
    note: 'Payments stay with the bank: Outlay records them and prepares the bank files, so approvals and payment keep four eyes.',
    daysAgo: 60,
    voters: ['felix'],
  },
];

export async function seedDemoFeatureSuggestions(tx: Db, now: Date): Promise<void> {
  const day = 86_400_000;
  const names = [
    ...new Set(SUGGESTIONS.flatMap((s) => [s.author, ...s.voters, ...(s.comments ?? []).map(([who]) => who)])),
  ];
  const rows = await tx
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.username, names));
  const id = new Map(rows.map((r) => [r.username, r.id]));
  const [admin] = await tx
    .select({ id: users.id })
    .from(users)
    .where(inArray(users.username, ['adam']));
  for (const s of SUGGESTIONS) {
    const author = id.get(s.author);
    if (!author) continue;
    const created = new Date(now.getTime() - s.daysAgo * day);
    const changed =
      s.status === 'open' ? null : new Date(created.getTime() + Math.max(1, Math.floor(s.daysAgo / 3)) * day);
    const [row] = await tx
      .insert(featureSuggestions)
      .values({
        authorId: author,
        title: s.title,
        description: s.description,
        status: s.status,
        statusNote: s.note ?? null,
        statusChangedAt: changed,
        statusChangedBy: changed ? (admin?.id ?? null) : null,
        createdAt: created,
        updatedAt: changed ?? created,
      })
      .returning({ id: featureSuggestions.id });
    const voters = s.voters.map((v) => id.get(v)).filter((v): v is string => Boolean(v));
    if (voters.length > 0) {
      await tx.insert(featureSuggestionVotes).values(
        voters.map((userId, i) => ({
          suggestionId: row!.id,
          userId,
          createdAt: new Date(created.getTime() + i * 3_600_000),
        })),
      );
    }
    const comments = (s.comments ?? []).filter(([who]) => id.has(who));
    if (comments.length > 0) {
      await tx.insert(featureSuggestionComments).values(
        comments.map(([who, body], i) => ({
          suggestionId: row!.id,
          authorId: id.get(who)!,
          body,
          createdAt: new Date(created.getTime() + (i + 1) * day),
        })),
      );
    }
  }
}
