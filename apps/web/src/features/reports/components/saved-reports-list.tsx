import { CalendarClock, Users } from 'lucide-react';
import { REPORT_FORMAT_LABELS, REPORT_SCHEDULE_LABELS, type SavedReport } from '@outlay/contracts/reports';
import { QueryState } from '@/components/query-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';
import { useSavedReports } from '../api/saved-reports';

/** My reports and those shared with me; opening one loads it into the builder and runs it. */
export function SavedReportsList({
  openId,
  onOpen,
  onDelete,
}: {
  openId: string | null;
  onOpen: (report: SavedReport) => void;
  onDelete: (report: SavedReport) => void;
}) {
  const reports = useSavedReports();
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Saved reports</CardTitle>
      </CardHeader>
      <CardContent className="p-0">
        <QueryState
          query={reports}
          loadingLabel="Loading saved reports"
          errorMessage="Could not load the saved reports."
          compact
          className="p-4"
        >
          {(data) =>
            data.items.length === 0 ? (
              <p className="px-6 pb-6 text-sm text-muted-foreground">
                No saved reports yet. Build one and choose Save.
              </p>
            ) : (
              <ul className="divide-y" aria-label="Saved reports">
                {data.items.map((r) => (
                  <li
                    key={r.id}
                    className={`flex flex-col gap-2 px-4 py-3 sm:px-6 ${openId === r.id ? 'bg-primary/5' : ''}`}
                  >
                    <div className="flex min-w-0 flex-wrap items-center gap-2">
                      <button
                        type="button"
                        className="min-w-0 truncate text-left font-medium hover:underline"
                        onClick={() => onOpen(r)}
                        aria-current={openId === r.id ? 'true' : undefined}
                      >
                        {r.name}
                      </button>
                      {!r.isOwner && <Badge variant="outline">Shared by {r.ownerName}</Badge>}
                    </div>
                    {r.description && <p className="text-sm text-muted-foreground break-words">{r.description}</p>}
                    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground">
                      {r.schedule !== 'none' && (
                        <span className="flex items-center gap-1">
                          <CalendarClock className="size-3.5" aria-hidden="true" />
                          {REPORT_SCHEDULE_LABELS[r.schedule]} · {REPORT_FORMAT_LABELS[r.scheduleFormat]}
                          {r.nextRunAt && ` · next ${formatDateTime(r.nextRunAt)}`}
                        </span>
                      )}
                      {(r.sharedWithUsers.length > 0 || r.sharedWithRoles.length > 0) && (
                        <span className="flex items-center gap-1">
                          <Users className="size-3.5" aria-hidden="true" />
                          Shared with{' '}
                          {[
                            r.sharedWithUsers.length
                              ? `${r.sharedWithUsers.length} ${r.sharedWithUsers.length === 1 ? 'person' : 'people'}`
                              : null,
                            r.sharedWithRoles.length
                              ? `${r.sharedWithRoles.length} ${r.sharedWithRoles.length === 1 ? 'role' : 'roles'}`
                              : null,
                          ]
                            .filter(Boolean)
                            .join(' and ')}
                        </span>
                      )}
                    </div>
                    <div className="flex flex-wrap gap-2">
                      <Button type="button" size="sm" variant="outline" onClick={() => onOpen(r)}>
                        Open<span className="sr-only"> {r.name}</span>
                      </Button>
                      {r.isOwner && (
                        <Button
                          type="button"
                          size="sm"
                          variant="ghost"
                          className="text-destructive"
                          onClick={() => onDelete(r)}
                        >
                          Delete<span className="sr-only"> {r.name}</span>
                        </Button>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryState>
      </CardContent>
    </Card>
  );
}
