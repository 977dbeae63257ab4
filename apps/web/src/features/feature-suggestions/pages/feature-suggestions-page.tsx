import { MessageSquare, Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import {
  FEATURE_SUGGESTION_STATUS_LABELS,
  FEATURE_SUGGESTION_STATUS_VALUES,
  type FeatureSuggestion,
} from '@outlay/contracts/feature-suggestions';
import {
  DataTable,
  DataTableFilterSelect,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/current-user';
import { formatDate } from '@/lib/format';
import { FEATURE_SUGGESTIONS_URL } from '../api/get-feature-suggestion';
import { NewSuggestionDialog, SuggestionDetailDialog } from '../components/suggestion-dialogs';
import { SuggestionStatusBadge } from '../components/suggestion-status-badge';
import { VoteButton } from '../components/vote-button';

const STATUS_OPTIONS = FEATURE_SUGGESTION_STATUS_VALUES.map((value) => ({
  value,
  label: FEATURE_SUGGESTION_STATUS_LABELS[value],
}));
const MINE_OPTIONS = [{ value: 'true', label: 'My suggestions' }];

function columns(open: (id: string) => void): DataTableColumn<FeatureSuggestion>[] {
  return [
    { id: 'votes', header: 'Votes', sortable: true, hideable: false, cell: (s) => <VoteButton suggestion={s} /> },
    {
      id: 'title',
      header: 'Suggestion',
      sortable: true,
      hideable: false,
      cell: (s) => (
        <div className="flex min-w-0 max-w-xl flex-col gap-0.5">
          <button
            type="button"
            className="text-left font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring"
            onClick={() => open(s.id)}
          >
            {s.title}
          </button>
          <span className="line-clamp-2 text-xs text-muted-foreground">{s.description}</span>
        </div>
      ),
    },
    { id: 'status', header: 'Status', sortable: true, cell: (s) => <SuggestionStatusBadge status={s.status} /> },
    {
      id: 'comments',
      header: 'Comments',
      sortable: true,
      align: 'right',
      cell: (s) => (
        <span className="inline-flex items-center gap-1 tabular-nums">
          <MessageSquare className="size-3.5 text-muted-foreground" aria-hidden="true" />
          {s.comments}
        </span>
      ),
    },
    { id: 'authorName', header: 'Suggested by' },
    { id: 'createdAt', header: 'Submitted', sortable: true, cell: (s) => formatDate(s.createdAt) },
  ];
}

/** /feature-suggestions: ideas from everyone, most voted first; holders of feedback.manage set the status. */
export default function FeatureSuggestionsPage() {
  const { user } = useAuth();
  const canManage = Boolean(user?.permissions.includes('feedback.manage'));
  const query = useListQuery<FeatureSuggestion>({
    url: FEATURE_SUGGESTIONS_URL,
    filters: ['status', 'mine'],
    defaultSort: 'votes',
    defaultOrder: 'desc',
  });
  // The open suggestion is in the address (?suggestion=), so the author's notification opens it.
  const [params, setParams] = useSearchParams();
  const openId = params.get('suggestion');
  const setOpen = (id: string | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set('suggestion', id);
      else next.delete('suggestion');
      return next;
    });
  const [creating, setCreating] = useState(false);

  return (
    <div>
      <PageHeader
        title="Feature Suggestions"
        description="Ideas to make Outlay better. Vote for the ones you want (one vote each), discuss them, and follow their status."
      />
      <DataTable
        label="Feature suggestions"
        entityName="suggestions"
        columns={columns(setOpen)}
        query={query}
        searchPlaceholder="Search titles and descriptions…"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="status"
              label="Status"
              allLabel="All statuses"
              options={STATUS_OPTIONS}
            />
            <DataTableFilterSelect
              query={query}
              name="mine"
              label="Suggested by"
              allLabel="Everyone"
              options={MINE_OPTIONS}
            />
          </>
        }
        actions={
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            New suggestion
          </Button>
        }
        empty={
          <div className="flex flex-col items-center gap-3 text-center">
            <p className="font-medium">No suggestions yet</p>
            <p className="text-sm text-muted-foreground">Be the first: what would make your work in Outlay easier?</p>
          </div>
        }
        renderCard={(s) => (
          <ListCard
            testId="suggestion-card"
            title={s.title}
            subtitle={`${s.authorName} · ${formatDate(s.createdAt)}`}
            badge={<SuggestionStatusBadge status={s.status} />}
            onOpen={() => setOpen(s.id)}
            openLabel={`Open ${s.title}`}
            meta={
              <span className="inline-flex items-center gap-1">
                <MessageSquare className="size-3.5" aria-hidden="true" />
                {s.comments === 1 ? '1 comment' : `${s.comments} comments`}
              </span>
            }
            footer={<VoteButton suggestion={s} className="h-10 w-auto flex-row gap-1 px-3" />}
          />
        )}
      />
      <SuggestionDetailDialog id={openId} canManage={canManage} onClose={() => setOpen(null)} />
      {creating && <NewSuggestionDialog open={creating} onOpenChange={setCreating} onCreated={(id) => setOpen(id)} />}
    </div>
  );
}
