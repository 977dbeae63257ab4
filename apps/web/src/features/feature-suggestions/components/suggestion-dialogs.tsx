import { MessageSquare } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import {
  FEATURE_SUGGESTION_STATUS_LABELS,
  FEATURE_SUGGESTION_STATUS_VALUES,
  createFeatureSuggestionInput,
  featureSuggestionCommentInput,
  type FeatureSuggestionDetail,
  type FeatureSuggestionStatus,
} from '@outlay/contracts/feature-suggestions';
import { FormDialog, FormFieldText, FormFieldTextarea, useZodForm } from '@/components/form';
import { FormServerError } from '@/components/form/form-dialog';
import { SelectField } from '@/components/form/plain-fields';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDate, formatDateTime } from '@/lib/format';
import { useAddComment } from '../api/add-comment';
import { useCreateFeatureSuggestion } from '../api/create-feature-suggestion';
import { useFeatureSuggestion } from '../api/get-feature-suggestion';
import { useSetSuggestionStatus } from '../api/set-feature-suggestion-status';
import { SuggestionStatusBadge } from './suggestion-status-badge';
import { VoteButton } from './vote-button';

export function NewSuggestionDialog({
  open,
  onOpenChange,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onCreated: (id: string) => void;
}) {
  const create = useCreateFeatureSuggestion();
  const { toast } = useToast();
  const form = useZodForm(createFeatureSuggestionInput, { title: '', description: '' });
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Suggest a feature"
      description="Describe the problem it solves. Others can vote for it and comment; your own vote is counted."
      form={form}
      submitLabel="Submit suggestion"
      pendingLabel="Submitting…"
      onSubmit={async (values) => {
        const saved = await create.mutateAsync(values);
        toast({ title: 'Suggestion submitted', description: saved.title });
        onCreated(saved.id);
      }}
    >
      <FormFieldText
        name="title"
        label="Title"
        required
        maxLength={120}
        placeholder="e.g. Approve requests from the e-mail"
      />
      <FormFieldTextarea name="description" label="Description" required rows={6} maxLength={4000} />
    </FormDialog>
  );
}

const STATUS_OPTIONS = FEATURE_SUGGESTION_STATUS_VALUES.map((value) => ({
  value,
  label: FEATURE_SUGGESTION_STATUS_LABELS[value],
}));

function StatusForm({ suggestion }: { suggestion: FeatureSuggestionDetail }) {
  const [status, setStatus] = useState<FeatureSuggestionStatus>(suggestion.status);
  const [note, setNote] = useState(suggestion.statusNote ?? '');
  const [error, setError] = useState<string | null>(null);
  const save = useSetSuggestionStatus();
  const { toast } = useToast();
  const unchanged = status === suggestion.status && note.trim() === (suggestion.statusNote ?? '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      const saved = await save.mutateAsync({
        id: suggestion.id,
        input: { status, ...(note.trim() ? { note: note.trim() } : {}) },
      });
      toast({
        title: 'Status saved',
        description: `${saved.title} is ${FEATURE_SUGGESTION_STATUS_LABELS[saved.status].toLowerCase()}; ${saved.authorName} is notified.`,
      });
    } catch (err) {
      setError(messageOf(err, 'Could not save the status.'));
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="flex flex-col gap-3 rounded-md border bg-muted/30 p-3"
      aria-label="Set the status"
    >
      <div className="grid gap-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
        <SelectField
          label="Status"
          value={status}
          onChange={(v) => setStatus(v as FeatureSuggestionStatus)}
          options={STATUS_OPTIONS}
        />
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="status-note">Note to the author (optional)</Label>
          <Textarea id="status-note" rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
      </div>
      <FormServerError error={error} />
      <div>
        <Button type="submit" size="sm" disabled={unchanged || save.isPending}>
          {save.isPending ? 'Saving…' : 'Save status'}
        </Button>
      </div>
    </form>
  );
}

function CommentForm({ id }: { id: string }) {
  const add = useAddComment();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = featureSuggestionCommentInput.safeParse({ body });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Write a comment');
      return;
    }
    setError(null);
    try {
      await add.mutateAsync({ id, input: parsed.data });
      setBody('');
    } catch (err) {
      setError(messageOf(err, 'Could not add the comment.'));
    }
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2">
      <Label htmlFor="suggestion-comment">Add a comment</Label>
      <Textarea
        id="suggestion-comment"
        rows={3}
        maxLength={2000}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        aria-invalid={Boolean(error)}
      />
      <FormServerError error={error} />
      <div>
        <Button type="submit" size="sm" disabled={add.isPending}>
          <MessageSquare aria-hidden="true" />
          {add.isPending ? 'Posting…' : 'Post comment'}
        </Button>
      </div>
    </form>
  );
}

/** One suggestion: its text, votes, status (editable for feedback.manage) and comments. User text is shown as text. */
export function SuggestionDetailDialog({
  id,
  canManage,
  onClose,
}: {
  id: string | null;
  canManage: boolean;
  onClose: () => void;
}) {
  const query = useFeatureSuggestion(id);
  return (
    <Dialog open={Boolean(id)} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-2xl">
        <QueryState
          query={query}
          loadingLabel="Loading the suggestion…"
          errorMessage="Could not load the suggestion."
          notFoundMessage="This suggestion does not exist."
        >
          {(s) => (
            <div className="flex min-w-0 flex-col gap-4">
              <DialogHeader>
                <div className="flex items-start gap-3">
                  <VoteButton suggestion={s} />
                  <div className="min-w-0 flex-1">
                    <DialogTitle className="break-words text-left">{s.title}</DialogTitle>
                    <DialogDescription className="mt-1 text-left">
                      Suggested by {s.authorName} on {formatDate(s.createdAt)}
                    </DialogDescription>
                    <div className="mt-2">
                      <SuggestionStatusBadge status={s.status} />
                    </div>
                  </div>
                </div>
              </DialogHeader>
              <p className="whitespace-pre-wrap break-words text-sm leading-6">{s.description}</p>
              {s.statusNote && (
                <div className="rounded-md border-l-4 border-primary/50 bg-muted/40 p-3 text-sm">
                  <p className="font-medium">
                    {FEATURE_SUGGESTION_STATUS_LABELS[s.status]}
                    {s.statusChangedAt ? ` · ${formatDate(s.statusChangedAt)}` : ''}
                  </p>
                  <p className="mt-1 whitespace-pre-wrap break-words text-muted-foreground">{s.statusNote}</p>
                </div>
              )}
              {canManage && <StatusForm key={`${s.id}-${s.status}-${s.statusNote ?? ''}`} suggestion={s} />}
              <section aria-labelledby="comments-title" className="flex flex-col gap-3 border-t pt-4">
                <h3 id="comments-title" className="text-sm font-semibold">
                  Comments ({s.commentList.length})
                </h3>
                {s.commentList.length === 0 ? (
                  <p className="text-sm text-muted-foreground">No comments yet.</p>
                ) : (
                  <ul className="flex flex-col gap-3">
                    {s.commentList.map((c) => (
                      <li key={c.id} className="rounded-md border p-3 text-sm">
                        <p className="text-xs text-muted-foreground">
                          <span className="font-medium text-foreground">{c.authorName}</span> ·{' '}
                          {formatDateTime(c.createdAt)}
                        </p>
                        <p className="mt-1 whitespace-pre-wrap break-words">{c.body}</p>
                      </li>
                    ))}
                  </ul>
                )}
                <CommentForm id={s.id} />
              </section>
            </div>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
