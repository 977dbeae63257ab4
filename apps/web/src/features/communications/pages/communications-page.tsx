import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/lib/current-user';
import { cn } from '@/lib/utils';
import { useConversations } from '../api/conversations';
import { useCommunicationsUnread } from '../api/unread';
import { AnnouncementsPanel } from '../components/announcements-panel';
import { ConversationList } from '../components/conversation-list';
import { ConversationView } from '../components/conversation-view';
import { NewConversationDialog } from '../components/new-conversation-dialog';

type Tab = 'conversations' | 'announcements';

function CountBadge({ n, label }: { n: number; label: string }) {
  if (n === 0) return null;
  return (
    <span
      className="ml-1.5 inline-flex min-w-5 items-center justify-center rounded-full bg-blue-600 px-1.5 text-[11px] font-semibold leading-5 text-white"
      data-testid={`${label}-unread`}
    >
      <span className="sr-only">, unread: </span>
      {n}
    </span>
  );
}

export default function CommunicationsPage() {
  const { user } = useAuth();
  const canAnnounce = Boolean(user?.permissions.includes('communications.announce'));
  const unread = useCommunicationsUnread();
  const conversations = useConversations();
  // The open conversation and the tab are in the address, so a mention's notification opens it.
  const [params, setParams] = useSearchParams();
  const selectedId = params.get('conversation');
  const tab: Tab = params.get('tab') === 'announcements' ? 'announcements' : 'conversations';
  const update = (changes: Record<string, string | null>) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      for (const [k, v] of Object.entries(changes)) {
        if (v) next.set(k, v);
        else next.delete(k);
      }
      return next;
    });
  const [starting, setStarting] = useState(false);
  const selected = conversations.data?.items.find((c) => c.id === selectedId) ?? null;

  return (
    <div>
      <PageHeader
        title="Communications"
        description="Announcements for your group, organization or department, and conversations with colleagues."
      />
      <Tabs value={tab} onValueChange={(v) => update({ tab: v === 'announcements' ? 'announcements' : null })}>
        <TabsList className="mb-4">
          <TabsTrigger value="conversations">
            Conversations
            <CountBadge n={unread.data?.messages ?? 0} label="messages" />
          </TabsTrigger>
          <TabsTrigger value="announcements">
            Announcements
            <CountBadge n={unread.data?.announcements ?? 0} label="announcements" />
          </TabsTrigger>
        </TabsList>
        <TabsContent value="conversations">
          <QueryState
            query={conversations}
            loadingLabel="Loading conversations…"
            errorMessage="Could not load your conversations."
            className="py-10"
          >
            {(data) => (
              <div className="grid min-w-0 gap-4 md:grid-cols-[18rem_minmax(0,1fr)] lg:grid-cols-[22rem_minmax(0,1fr)]">
                {/* On a phone the list and the open conversation take turns. */}
                <div className={cn('flex min-w-0 flex-col gap-3', selected && 'hidden md:flex')}>
                  <Button onClick={() => setStarting(true)} className="self-start">
                    <Plus aria-hidden="true" />
                    New conversation
                  </Button>
                  <ConversationList
                    items={data.items}
                    selectedId={selectedId}
                    viewerId={user?.id}
                    onSelect={(id) => update({ conversation: id })}
                  />
                </div>
                {selected ? (
                  <ConversationView
                    key={selected.id}
                    conversation={selected}
                    viewerId={user?.id}
                    onBack={() => update({ conversation: null })}
                  />
                ) : (
                  <div className="hidden min-h-[20rem] items-center justify-center rounded-lg border border-dashed text-sm text-muted-foreground md:flex">
                    {selectedId
                      ? 'This conversation does not exist or you are not in it.'
                      : 'Choose a conversation, or start a new one.'}
                  </div>
                )}
              </div>
            )}
          </QueryState>
        </TabsContent>
        <TabsContent value="announcements">
          <AnnouncementsPanel canAnnounce={canAnnounce} unread={unread.data?.announcements ?? 0} />
        </TabsContent>
      </Tabs>
      {starting && (
        <NewConversationDialog
          open={starting}
          onOpenChange={setStarting}
          onStarted={(id) => update({ conversation: id, tab: null })}
        />
      )}
    </div>
  );
}
