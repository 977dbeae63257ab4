import { Check, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { createConversationInput, type CommunicationsPerson } from '@outlay/contracts/communications';
import { FormServerError } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { messageOf } from '@/lib/api-error';
import { useDebounced } from '@/lib/use-debounced';
import { cn } from '@/lib/utils';
import { useCreateConversation } from '../api/create-conversation';
import { usePeople } from '../api/people';

/** Pick one person (a direct conversation) or several with an optional title (a group). */
export function NewConversationDialog({
  open,
  onOpenChange,
  onStarted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onStarted: (id: string) => void;
}) {
  const [q, setQ] = useState('');
  const search = useDebounced(q.trim(), 250);
  const people = usePeople(search, open);
  const [chosen, setChosen] = useState<CommunicationsPerson[]>([]);
  const [title, setTitle] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateConversation();
  const toggle = (p: CommunicationsPerson) =>
    setChosen((list) => (list.some((c) => c.id === p.id) ? list.filter((c) => c.id !== p.id) : [...list, p]));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = createConversationInput.safeParse({
      memberIds: chosen.map((c) => c.id),
      ...(title.trim() ? { title: title.trim() } : {}),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Choose at least one person');
      return;
    }
    setError(null);
    try {
      const c = await create.mutateAsync(parsed.data);
      onStarted(c.id);
      onOpenChange(false);
    } catch (err) {
      setError(messageOf(err, 'Could not start the conversation.'));
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90vh] overflow-y-auto sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>New conversation</DialogTitle>
          <DialogDescription>Choose one person for a direct conversation, or several for a group.</DialogDescription>
        </DialogHeader>
        <form onSubmit={(e) => void submit(e)} className="flex min-w-0 flex-col gap-4">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="people-search">Search people</Label>
            <Input
              id="people-search"
              value={q}
              onChange={(e) => setQ(e.target.value)}
              placeholder="Search by name or username"
              autoComplete="off"
            />
          </div>
          {chosen.length > 0 && (
            <ul aria-label="Chosen people" className="flex flex-wrap gap-2">
              {chosen.map((p) => (
                <li key={p.id}>
                  <Button
                    type="button"
                    size="sm"
                    variant="secondary"
                    onClick={() => toggle(p)}
                    aria-label={`Remove ${p.name}`}
                  >
                    {p.name}
                    <X aria-hidden="true" />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <div className="max-h-64 overflow-y-auto rounded-md border">
            <QueryState
              query={people}
              loadingLabel="Searching people…"
              errorMessage="Could not search people."
              compact
              className="p-3"
            >
              {(data) =>
                data.items.length === 0 ? (
                  <p className="p-3 text-sm text-muted-foreground">Nobody found.</p>
                ) : (
                  <ul aria-label="People found">
                    {data.items.map((p) => {
                      const on = chosen.some((c) => c.id === p.id);
                      return (
                        <li key={p.id}>
                          <button
                            type="button"
                            aria-pressed={on}
                            onClick={() => toggle(p)}
                            className={cn(
                              'flex w-full items-center justify-between gap-2 px-3 py-2 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-ring',
                              on && 'bg-blue-50',
                            )}
                          >
                            <span className="min-w-0">
                              <span className="block truncate font-medium">{p.name}</span>
                              <span className="block truncate text-xs text-muted-foreground">
                                @{p.username}
                                {p.organizationName ? ` · ${p.organizationName}` : ''}
                              </span>
                            </span>
                            {on && <Check className="size-4 shrink-0 text-primary" aria-hidden="true" />}
                          </button>
                        </li>
                      );
                    })}
                  </ul>
                )
              }
            </QueryState>
          </div>
          {chosen.length > 1 && (
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="conversation-title-input">Group title (optional)</Label>
              <Input
                id="conversation-title-input"
                value={title}
                maxLength={120}
                onChange={(e) => setTitle(e.target.value)}
              />
            </div>
          )}
          <FormServerError error={error} />
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Starting…' : 'Start conversation'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
