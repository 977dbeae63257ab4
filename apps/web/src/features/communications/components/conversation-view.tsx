import { ArrowLeft, Paperclip, Send, X } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MESSAGES,
  ATTACHMENT_TYPES,
} from '@outlay/contracts/requests';
import { sendMessageInput, type Conversation, type Message } from '@outlay/contracts/communications';
import { downloadFile } from '@/components/data-table/download';
import { FormServerError } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { useMarkConversationRead } from '../api/mark-conversation-read';
import { useMessages } from '../api/messages';
import { useSendMessage } from '../api/send-message';
import { conversationName } from './conversation-name';
import { MessageText } from './message-text';

function fileSize(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${formatNumber(bytes / (1024 * 1024), 1)} MB`
    : `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;
}

function MessageBubble({ m, mine }: { m: Message; mine: boolean }) {
  const { toast } = useToast();
  return (
    <li className={cn('flex', mine ? 'justify-end' : 'justify-start')} data-testid="message">
      <div
        className={cn(
          'max-w-[85%] rounded-lg px-3 py-2 text-sm shadow-sm sm:max-w-[70%]',
          mine ? 'bg-blue-700 text-white' : 'border bg-card',
        )}
      >
        <p className={cn('text-xs', mine ? 'text-blue-50' : 'text-muted-foreground')}>
          <span className="font-medium">{mine ? 'You' : m.authorName}</span> ·{' '}
          <time dateTime={m.createdAt}>{formatDateTime(m.createdAt)}</time>
        </p>
        {m.body && (
          <MessageText
            text={m.body}
            className="mt-0.5 whitespace-pre-wrap break-words"
            mentionClassName={mine ? 'font-semibold underline' : undefined}
          />
        )}
        {m.attachments.map((a) => (
          <button
            key={a.id}
            type="button"
            className={cn(
              'mt-1 flex max-w-full items-center gap-1.5 rounded underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-ring',
              mine ? 'text-white' : 'text-primary',
            )}
            onClick={() =>
              void downloadFile(a.url, a.fileName).catch((err) =>
                toast({
                  title: 'Could not download the file',
                  description: messageOf(err, 'Try again.'),
                  variant: 'destructive',
                }),
              )
            }
          >
            <Paperclip className="size-4 shrink-0" aria-hidden="true" />
            <span className="truncate">{a.fileName}</span>
            <span className={cn('shrink-0 text-xs', mine ? 'text-blue-50' : 'text-muted-foreground')}>
              ({fileSize(a.size)})
            </span>
          </button>
        ))}
      </div>
    </li>
  );
}

function Composer({ conversationId }: { conversationId: string }) {
  const send = useSendMessage();
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!file) {
      const parsed = sendMessageInput.safeParse({ body });
      if (!parsed.success) {
        setError(parsed.error.issues[0]?.message ?? 'Write a message');
        return;
      }
    }
    setError(null);
    try {
      await send.mutateAsync({ conversationId, body: body.trim(), file });
      setBody('');
      setFile(null);
    } catch (err) {
      setError(messageOf(err, 'Could not send the message.'));
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter starts a new line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="flex flex-col gap-2 border-t bg-card p-3"
      aria-label="Write a message"
    >
      <Label htmlFor="message-body" className="sr-only">
        Message
      </Label>
      <Textarea
        id="message-body"
        rows={2}
        maxLength={4000}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={onKeyDown}
        placeholder="Write a message… (@username to mention someone)"
        aria-invalid={Boolean(error)}
        aria-describedby={error ? 'message-error' : undefined}
      />
      {file && (
        <p className="flex items-center gap-2 text-sm">
          <Paperclip className="size-4" aria-hidden="true" />
          <span className="truncate">{file.name}</span>
          <Button
            type="button"
            size="icon"
            variant="ghost"
            className="size-7"
            aria-label={`Remove ${file.name}`}
            onClick={() => setFile(null)}
          >
            <X aria-hidden="true" />
          </Button>
        </p>
      )}
      <FormServerError error={error} id="message-error" />
      <div className="flex items-center justify-between gap-2">
        <input
          ref={fileInput}
          type="file"
          accept={ATTACHMENT_ACCEPT}
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          onChange={(e) => {
            const chosen = e.target.files?.[0] ?? null;
            e.target.value = '';
            if (!chosen) return;
            if (!(ATTACHMENT_TYPES as readonly string[]).includes(chosen.type))
              return setError(ATTACHMENT_MESSAGES.type);
            if (chosen.size > ATTACHMENT_MAX_BYTES) return setError(ATTACHMENT_MESSAGES.size);
            setError(null);
            setFile(chosen);
          }}
        />
        <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()}>
          <Paperclip aria-hidden="true" />
          Attach a file
        </Button>
        <Button type="submit" size="sm" disabled={send.isPending}>
          <Send aria-hidden="true" />
          {send.isPending ? 'Sending…' : 'Send'}
        </Button>
      </div>
    </form>
  );
}

/** One conversation: its history (older pages on demand), marked read while open, and the composer. */
export function ConversationView({
  conversation,
  viewerId,
  onBack,
}: {
  conversation: Conversation;
  viewerId: string | undefined;
  onBack: () => void;
}) {
  const query = useMessages(conversation.id);
  const markRead = useMarkConversationRead();
  const bottom = useRef<HTMLDivElement>(null);
  const newest = query.data?.pages[0]?.items[0]?.id;
  // Seen while open: the read mark follows the newest message shown.
  useEffect(() => {
    if (conversation.unread > 0 && newest && !markRead.isPending) markRead.mutate(conversation.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversation.id, conversation.unread, newest]);
  useEffect(() => {
    bottom.current?.scrollIntoView({ block: 'end' });
  }, [newest]);
  const messages = [...(query.data?.pages.flatMap((p) => p.items) ?? [])].reverse();
  const name = conversationName(conversation, viewerId);
  return (
    <section
      aria-labelledby="conversation-title"
      className="flex min-h-[28rem] min-w-0 flex-col rounded-lg border bg-slate-50 lg:h-[calc(100vh-15rem)]"
    >
      <header className="flex items-center gap-2 border-b bg-card px-3 py-2">
        <Button variant="ghost" size="icon" className="md:hidden" aria-label="Back to conversations" onClick={onBack}>
          <ArrowLeft aria-hidden="true" />
        </Button>
        <div className="min-w-0">
          <h2 id="conversation-title" className="truncate text-base font-semibold">
            {name}
          </h2>
          <p className="truncate text-xs text-muted-foreground">
            {conversation.members.map((m) => (m.id === viewerId ? 'You' : `${m.name} (@${m.username})`)).join(', ')}
          </p>
        </div>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto p-3" tabIndex={0} aria-label="Messages">
        <QueryState
          query={{ ...query, data: query.data }}
          loadingLabel="Loading messages…"
          errorMessage="Could not load the messages."
          className="py-10"
        >
          {() => (
            <>
              {query.hasNextPage && (
                <div className="mb-3 flex justify-center">
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={query.isFetchingNextPage}
                    onClick={() => void query.fetchNextPage()}
                  >
                    {query.isFetchingNextPage ? 'Loading…' : 'Show older messages'}
                  </Button>
                </div>
              )}
              {messages.length === 0 ? (
                <p className="py-10 text-center text-sm text-muted-foreground">No messages yet. Say hello.</p>
              ) : (
                <ol className="flex flex-col gap-2" aria-live="polite" aria-relevant="additions">
                  {messages.map((m) => (
                    <MessageBubble key={m.id} m={m} mine={m.authorId === viewerId} />
                  ))}
                </ol>
              )}
              <div ref={bottom} />
            </>
          )}
        </QueryState>
      </div>
      <Composer conversationId={conversation.id} />
    </section>
  );
}
