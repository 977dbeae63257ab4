import { useQueryClient } from '@tanstack/react-query';
import { MessageSquare } from 'lucide-react';
import { useId, useState } from 'react';
import type { RequestComment } from '@outlay/contracts/requests';
import { FieldError, FormServerError } from '@/components/form';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { addComment } from '@/features/requests/api/add-comment';
import { invalidateRequests } from '@/features/requests/api/keys';

const COMMENT_KIND: Record<RequestComment['kind'], string | null> = {
  comment: null,
  info_request: 'Information requested',
  info_response: 'Answer',
};

export function Comments({
  requestId,
  comments,
  canComment,
  onChanged,
}: {
  requestId: string;
  comments: RequestComment[];
  canComment: boolean;
  onChanged?: () => void;
}) {
  const queryClient = useQueryClient();
  const [body, setBody] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const fieldId = useId();

  const send = async () => {
    const text = body.trim();
    if (!text) {
      setFieldError('Write a comment');
      return;
    }
    setFieldError(null);
    setServerError(null);
    setPending(true);
    try {
      await addComment(requestId, text);
      setBody('');
      await invalidateRequests(queryClient);
      onChanged?.();
    } catch (error) {
      setServerError(messageOf(error, 'The comment could not be added. Try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      {comments.length === 0 ? (
        <p className="text-sm text-muted-foreground">No comments yet.</p>
      ) : (
        <ul className="flex flex-col gap-3" aria-label="Comments">
          {comments.map((c) => {
            const kind = COMMENT_KIND[c.kind];
            return (
              <li
                key={c.id}
                className={cn('rounded-lg border p-3', c.kind === 'info_request' && 'border-violet-200 bg-violet-50')}
              >
                <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <MessageSquare className="size-3.5" aria-hidden="true" />
                  <span className="font-medium text-foreground">{c.author.name}</span>
                  <time dateTime={c.createdAt}>{formatDateTime(c.createdAt)}</time>
                  {kind && <Badge variant={c.kind === 'info_request' ? 'purple' : 'primary'}>{kind}</Badge>}
                </p>
                <p className="mt-1.5 whitespace-pre-line text-sm">{c.body}</p>
              </li>
            );
          })}
        </ul>
      )}
      {canComment && (
        <form
          noValidate
          className="flex flex-col gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            void send();
          }}
        >
          <FormServerError error={serverError} />
          <Label htmlFor={fieldId}>Add a comment</Label>
          <Textarea
            id={fieldId}
            rows={2}
            maxLength={2000}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${fieldId}-error` : undefined}
          />
          {fieldError && <FieldError id={`${fieldId}-error`}>{fieldError}</FieldError>}
          <div>
            <Button type="submit" size="sm" disabled={pending}>
              {pending ? 'Sending…' : 'Comment'}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
