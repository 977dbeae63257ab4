import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useSearchParams } from 'wouter';
import { RequestDetailView } from './request-detail/request-detail-view';
import { useReturnFocus } from '@/lib/return-focus';

/** The request of `?id=<id>` in a side sheet (full screen on phones); links from notifications land here. */
export function useRequestIdParam() {
  const [params, setParams] = useSearchParams();
  const id = params.get('id');
  const setId = (next: string | null) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (next) p.set('id', next);
        else p.delete('id');
        return p;
      },
      { replace: !next },
    );
  return [id, setId] as const;
}

export function RequestDetailSheet({ requestId, onClose }: { requestId: string | null; onClose: () => void }) {
  // Back to the row or card that opened it.
  const returnFocus = useReturnFocus({});
  return (
    <DialogPrimitive.Root open={Boolean(requestId)} onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 animate-fade-in bg-slate-950/50" />
        <DialogPrimitive.Content
          aria-describedby={undefined}
          {...returnFocus}
          className="fixed inset-0 z-50 flex flex-col bg-card shadow-2xl animate-fade-in sm:inset-y-0 sm:left-auto sm:right-0 sm:w-[min(760px,100vw)] sm:border-l"
        >
          <div className="flex items-center justify-between border-b px-4 py-3 sm:px-6">
            <DialogPrimitive.Title className="text-base font-semibold">Request</DialogPrimitive.Title>
            <DialogPrimitive.Close className="rounded-md p-2 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring">
              <X className="size-5" aria-hidden="true" />
              <span className="sr-only">Close</span>
            </DialogPrimitive.Close>
          </div>
          <div className="flex-1 overflow-y-auto px-4 py-5 sm:px-6">
            {requestId && <RequestDetailView requestId={requestId} />}
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
