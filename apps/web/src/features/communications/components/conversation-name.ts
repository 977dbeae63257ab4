import type { Conversation } from '@outlay/contracts/communications';

/** A group's title, else the other people's names (a direct conversation is named after the other person). */
export function conversationName(c: Conversation, viewerId: string | undefined): string {
  if (c.title) return c.title;
  const others = c.members.filter((m) => m.id !== viewerId).map((m) => m.name);
  return others.length > 0 ? others.join(', ') : 'Only you';
}
