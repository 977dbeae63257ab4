import { QueryState } from '@/components/query-state';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime } from '@/lib/format';
import { useAuditEvent } from '../api/audit';
import { AuditDiff } from './audit-diff';

/** One audit event: who, what, when, from where, before and after, and its chain link. */
export function AuditEventDialog({ id, onClose }: { id: number | null; onClose: () => void }) {
  const event = useAuditEvent(id);
  const e = event.data;
  return (
    <Dialog open={id !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{e ? `${e.record}: ${e.description}` : `Audit event #${id ?? ''}`}</DialogTitle>
          <DialogDescription>
            {e ? `Event #${e.id} · ${e.action} · ${formatDateTime(e.occurredAt)}` : 'Loading the event…'}
          </DialogDescription>
        </DialogHeader>
        <QueryState query={event} loadingLabel="Loading the event" errorMessage="The event could not be loaded.">
          {(e) => (
            <div className="flex flex-col gap-4">
              <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
                <dt className="text-muted-foreground">Who</dt>
                <dd>{e.actorName ? `${e.actorName} (${e.actorUsername})` : 'System or visitor'}</dd>
                <dt className="text-muted-foreground">What</dt>
                <dd>
                  {e.record}
                  {e.entityId && (
                    <span className="ml-1 break-all font-mono text-xs text-muted-foreground">
                      {e.entityType} {e.entityId}
                    </span>
                  )}
                </dd>
                <dt className="text-muted-foreground">From where</dt>
                <dd className="break-all">
                  {e.ip ?? '—'}
                  {e.userAgent && <span className="block text-xs text-muted-foreground">{e.userAgent}</span>}
                </dd>
              </dl>
              <section aria-label="Changes" className="flex flex-col gap-2">
                <h3 className="text-sm font-semibold">Before and after</h3>
                {e.changes.length > 0 ? (
                  <table className="w-full text-left text-sm">
                    <thead className="text-xs text-muted-foreground">
                      <tr>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Field
                        </th>
                        <th scope="col" className="py-1 pr-3 font-medium">
                          Before
                        </th>
                        <th scope="col" className="py-1 font-medium">
                          After
                        </th>
                      </tr>
                    </thead>
                    <tbody className="divide-y">
                      {e.changes.map((c) => (
                        <tr key={c.field} data-changed="">
                          <th scope="row" className="py-1 pr-3 font-normal text-muted-foreground">
                            {c.field}
                          </th>
                          <td className="py-1 pr-3 tabular-nums">{c.before ?? '—'}</td>
                          <td className="py-1 tabular-nums">{c.after ?? '—'}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                ) : (
                  <AuditDiff before={e.before} after={e.after} />
                )}
              </section>
              {e.metadata !== null && e.metadata !== undefined && (
                <section className="flex flex-col gap-2">
                  <h3 className="text-sm font-semibold">Details</h3>
                  <pre className="overflow-x-auto rounded-md bg-muted/60 p-3 text-xs">
                    {JSON.stringify(e.metadata, null, 2)}
                  </pre>
                </section>
              )}
              <p className="break-all font-mono text-[11px] text-muted-foreground">
                hash {e.hash}
                <br />
                previous {e.prevHash}
              </p>
            </div>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
