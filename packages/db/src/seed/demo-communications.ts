// Demo communications: a few announcements (to everyone, to a subsidiary, to a department) and
// conversations between the demo accounts, some read and some not, so /communications and the
// top bar's unread count show how they are used on a fresh start.
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../client.ts';
import {
  announcementReads,
  announcements,
  conversationMembers,
  conversations,
  departments,
  messages,
  organizations,
  users,
} from '../schema/index.ts';

const HOUR = 3_600_000;

export async function seedDemoCommunications(tx: Db, now: Date): Promise<void> {
  const people = await tx
    .select({
      id: users.id,
      username: users.username,
      organizationId: users.organizationId,
      departmentId: users.departmentId,
    })
    .from(users)
    .where(inArray(users.username, ['henry', 'carla', 'grace', 'dana', 'max', 'rita', 'felix', 'adam']));
  const u = new Map(people.map((p) => [p.username, p]));
  const id = (name: string) => u.get(name)!.id;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  const [logistics] = await tx
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, u.get('max')!.organizationId!));
  const [operations] = await tx
    .select({ id: departments.id, organizationId: departments.organizationId })
    .from(departments)
    .where(eq(departments.id, u.get('dana')!.departmentId!));

  const published = await tx
    .insert(announcements)
    .values([
      {
        authorId: id('henry'),
        title: 'Welcome to Outlay',
        body: 'From this month every spending request, approval and budget of Meridian Group lives in Outlay. Raise requests under New Request; your approvers are told at once.\n\nQuestions go to Adam in IT.',
        audience: 'everyone' as const,
        organizationId: null,
        departmentId: null,
        createdAt: at(24 * 20),
      },
      {
        authorId: id('carla'),
        title: 'Month-end close: submit expenses by the 28th',
        body: "Finance closes the books on the last working day. Requests submitted after the 28th move to next month's budgets.",
        audience: 'everyone' as const,
        organizationId: null,
        departmentId: null,
        createdAt: at(24 * 3),
      },
      {
        authorId: id('dana'),
        title: 'Depot supplies: use the recurring request',
        body: 'Pallet wrap and safety gloves are ordered every month with the recurring request; please do not raise one-off requests for them.',
        audience: 'department' as const,
        organizationId: operations!.organizationId,
        departmentId: operations!.id,
        createdAt: at(30),
      },
      {
        authorId: id('henry'),
        title: 'Meridian Logistics: new fleet fuel cards',
        body: 'Fuel cards for the new trucks arrive next week. Fuel paid with a card needs no reimbursement request.',
        audience: 'organization' as const,
        organizationId: logistics!.id,
        departmentId: null,
        createdAt: at(6),
      },
    ])
    .returning({ id: announcements.id, title: announcements.title });
  // The welcome is old news for the demo accounts.
  const welcome = published.find((a) => a.title === 'Welcome to Outlay')!;
  await tx
    .insert(announcementReads)
    .values(
      people
        .filter((p) => p.username !== 'henry')
        .map((p) => ({ announcementId: welcome.id, userId: p.id, readAt: at(24 * 19) })),
    );

  const talk = async (
    kind: 'direct' | 'group',
    title: string | null,
    members: string[],
    lines: [string, string, number][],
    readUpTo: Record<string, number>,
  ) => {
    const memberIds = members.map(id);
    const [c] = await tx
      .insert(conversations)
      .values({
        kind,
        title,
        directKey: kind === 'direct' ? [...memberIds].sort().join(':') : null,
        createdById: memberIds[0]!,
        createdAt: at(lines[0]![2]),
        lastMessageAt: at(lines[lines.length - 1]![2]),
      })
      .returning({ id: conversations.id });
    const written = await tx
      .insert(messages)
      .values(
        lines.map(([author, body, hoursAgo]) => ({
          conversationId: c!.id,
          authorId: id(author),
          body,
          createdAt: at(hoursAgo),
        })),
      )
      .returning({ seq: messages.seq });
    const seqs = written.map((w) => w.seq).sort((a, b) => a - b);
    // readUpTo: how many of the messages each member has read (default: all).
    await tx.insert(conversationMembers).values(
      members.map((m) => ({
        conversationId: c!.id,
        userId: id(m),
        joinedAt: at(lines[0]![2]),
        lastReadSeq: seqs[(readUpTo[m] ?? seqs.length) - 1] ?? 0,
      })),
    );
  };

  await talk(
    'direct',
    null,
    ['max', 'rita'],
    [
      [
        'rita',
        'Hi Max, the forklift battery quote came in higher than budgeted. Should I split it over two months?',
        28,
      ],
      ['max', 'No need, raise it as one request and attach the quote. I will approve it today.', 27],
      ['rita', 'Done, it is submitted with the PDF.', 26],
      ['max', 'Approved. Dana will see it next because of the amount.', 2],
    ],
    { rita: 3 },
  );
  await talk(
    'group',
    'Month-end close',
    ['carla', 'grace', 'felix', 'adam'],
    [
      ['carla', 'Close starts Thursday. Felix, are the Logistics accruals ready?', 50],
      ['felix', 'Almost: two vendor invoices are still waiting for approval.', 49],
      ['grace', '@felix send me the list and I will chase the approvers.', 48],
      ['felix', 'Sent. Thanks @grace!', 5],
    ],
    { carla: 3, adam: 2 },
  );
}
