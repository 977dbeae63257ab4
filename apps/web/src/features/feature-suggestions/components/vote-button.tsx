import { ChevronUp } from 'lucide-react';
import type { FeatureSuggestion } from '@outlay/contracts/feature-suggestions';
import { useToast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { cn } from '@/lib/utils';
import { useVote } from '../api/vote-feature-suggestion';

/** One vote per person: pressed when the caller has voted; pressing again takes the vote back. */
export function VoteButton({
  suggestion,
  className,
}: {
  suggestion: Pick<FeatureSuggestion, 'id' | 'title' | 'votes' | 'voted'>;
  className?: string;
}) {
  const vote = useVote();
  const { toast } = useToast();
  const votes = suggestion.votes;
  return (
    <button
      type="button"
      aria-pressed={suggestion.voted}
      // The count the button shows is in its name, and not in parentheses, which speech control
      // leaves out of what it matches (WCAG 2.5.3).
      aria-label={`${suggestion.voted ? 'Remove your vote for' : 'Vote for'} ${suggestion.title}, ${votes === 1 ? '1 vote' : `${votes} votes`}`}
      disabled={vote.isPending}
      onClick={(e) => {
        e.stopPropagation();
        vote.mutate(
          { id: suggestion.id, voted: !suggestion.voted },
          {
            onError: (error) =>
              toast({
                variant: 'destructive',
                title: 'Could not save your vote',
                description: messageOf(error, 'Try again.'),
              }),
          },
        );
      }}
      className={cn(
        'flex h-14 w-12 shrink-0 flex-col items-center justify-center rounded-md border text-sm font-semibold tabular-nums transition-colors focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-60',
        suggestion.voted ? 'border-primary bg-primary text-primary-foreground' : 'bg-card hover:bg-muted',
        className,
      )}
    >
      <ChevronUp className="size-4" aria-hidden="true" />
      {votes}
    </button>
  );
}
