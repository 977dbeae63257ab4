import { MessagesSquare } from 'lucide-react';
import type { Conversation } from '@outlay/contracts/communications';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { conversationName } from './conversation-name';

export function ConversationList({
  items,
  selectedId,
  viewerId,
  onSelect,
}: {
  items: Conversation[];
  selectedId: string | null;
  viewerId: string | undefined;
  onSelect: (id: string) => void;
}) {
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed p-8 text-center text-sm text-muted-foreground">
        <MessagesSquare className="size-8" aria-hidden="true" />
        <p>No conversations yet. Start one with a colleague.</p>
      </div>
    );
  }
  return (
    <ul aria-label="Conversations" className="flex flex-col gap-1">
      {items.map((c) => {
        const name = conversationName(c, viewerId);
        const selected = c.id === selectedId;
        return (
          <li key={c.id}>
            <button
              type="button"
              onClick={() => onSelect(c.id)}
              aria-current={selected ? 'true' : undefined}
              data-testid="conversation-item"
              className={cn(
                'flex w-full min-w-0 items-start gap-3 rounded-md border border-transparent px-3 py-2 text-left transition-colors hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-ring',
                selected && 'border-blue-200 bg-blue-50 hover:bg-blue-50',
              )}
            >
              <span className="min-w-0 flex-1">
                <span className="flex items-baseline justify-between gap-2">
                  <span className={cn('truncate text-sm', c.unread > 0 ? 'font-semibold' : 'font-medium')}>{name}</span>
                  <time dateTime={c.lastActivityAt} className="shrink-0 text-xs text-muted-foreground">
                    {formatDateTime(c.lastActivityAt)}
                  </time>
                </span>
                <span className="block truncate text-xs text-muted-foreground">
                  {c.lastMessage ? `${c.lastMessage.authorName}: ${c.lastMessage.body}` : 'No messages yet'}
                </span>
              </span>
              {c.unread > 0 && (
                <span className="mt-0.5 inline-flex min-w-5 shrink-0 items-center justify-center rounded-full bg-blue-600 px-1.5 text-[11px] font-semibold leading-5 text-white">
                  <span className="sr-only">Unread: </span>
                  {c.unread}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
