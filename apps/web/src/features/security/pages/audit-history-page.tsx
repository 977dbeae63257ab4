import { X } from 'lucide-react';
import { useState } from 'react';
import type { AuditItem } from '@outlay/contracts/audit';
import {
  DataTable,
  DataTableFilterSelect,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDateTime, plural } from '@/lib/format';
import { AUDIT_URL, useAuditFacets } from '../api/audit';
import { AuditEventDialog } from '../components/audit-event-dialog';
import { DateRangeFilter } from '../components/date-range-filter';
import { VerifyChain } from '../components/verify-chain-button';

/** "spending_request" → "Spending request". */
function entityWords(type: string): string {
  const words = type.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** /audit-history: the append-only, hash-chained record of changes (docs/product.md §3.10). */
export default function AuditHistoryPage() {
  const query = useListQuery<AuditItem>({
    url: AUDIT_URL,
    filters: ['action', 'entityType', 'entityId', 'actorId', 'from', 'to'],
    defaultSort: 'occurredAt',
    defaultOrder: 'desc',
  });
  const facets = useAuditFacets();
  const [openId, setOpenId] = useState<number | null>(null);
  const [actorLabel, setActorLabel] = useState<string | null>(null);
  const { actorId, entityId } = query.state.filters;

  const columns: DataTableColumn<AuditItem>[] = [
    { id: 'occurredAt', header: 'When', sortable: true, hideable: false, cell: (r) => formatDateTime(r.occurredAt) },
    {
      id: 'actorName',
      header: 'Who',
      sortable: true,
      cell: (r) =>
        r.actorId ? (
          <button
            type="button"
            className="text-left underline-offset-2 hover:underline"
            title="Show only this person's events"
            onClick={(event) => {
              event.stopPropagation();
              setActorLabel(r.actorName ?? r.actorUsername);
              query.setters.setFilter('actorId', r.actorId!);
            }}
          >
            {r.actorName ?? r.actorUsername}
          </button>
        ) : (
          <span className="text-muted-foreground">System or visitor</span>
        ),
    },
    {
      id: 'entityType',
      header: 'Record',
      sortable: true,
      cell: (r) => (
        <div className="flex flex-col">
          <span className="font-medium">{r.record}</span>
          <span className="text-[11px] text-muted-foreground">{entityWords(r.entityType)}</span>
        </div>
      ),
    },
    {
      id: 'action',
      header: 'Action',
      sortable: true,
      cell: (r) => (
        <div className="flex flex-col">
          <span>{r.description}</span>
          <span className="font-mono text-[11px] text-muted-foreground">{r.action}</span>
        </div>
      ),
    },
    {
      id: 'hasChanges',
      header: 'Before → after',
      cell: (r) =>
        r.changes.length > 0 ? (
          <ul className="flex max-w-80 flex-col gap-0.5 text-xs">
            {r.changes.slice(0, 3).map((c) => (
              <li key={c.field}>
                <span className="text-muted-foreground">{c.field}:</span> {c.before ?? '—'} → {c.after ?? '—'}
              </li>
            ))}
            {r.changes.length > 3 && (
              <li className="text-muted-foreground">and {plural(r.changes.length - 3, 'more field')}</li>
            )}
          </ul>
        ) : r.hasChanges ? (
          <Badge variant="warning">Before/after</Badge>
        ) : (
          <span className="text-muted-foreground">—</span>
        ),
    },
    { id: 'ip', header: 'From', sortable: true, className: 'font-mono text-xs' },
    { id: 'id', header: 'Event', sortable: true, hidden: true, cell: (r) => `#${r.id}` },
  ];

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Audit History"
        description="Every change to money, access and settings: who, what, when, from where, before and after. Append-only and hash-chained."
      />
      <VerifyChain onShowEvent={setOpenId} />
      {(actorId || entityId) && (
        <div className="flex flex-wrap gap-2" aria-label="Active filters">
          {actorId && (
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setActorLabel(null);
                query.setters.setFilter('actorId', undefined);
              }}
            >
              Who: {actorLabel ?? 'one person'}
              <X aria-label="Remove this filter" />
            </Button>
          )}
          {entityId && (
            <Button size="sm" variant="outline" onClick={() => query.setters.setFilter('entityId', undefined)}>
              Entity id: {entityId}
              <X aria-label="Remove this filter" />
            </Button>
          )}
        </div>
      )}
      <DataTable
        label="Audit events"
        entityName="audit events"
        columns={columns}
        query={query}
        searchPlaceholder="Search record, person, action or IP…"
        exportFilename="audit-history"
        onRowClick={(r) => setOpenId(r.id)}
        renderCard={(r) => (
          <ListCard
            eyebrow={`#${r.id} · ${r.record}`}
            title={r.description}
            badge={r.hasChanges ? <Badge variant="warning">Before/after</Badge> : undefined}
            onOpen={() => setOpenId(r.id)}
            openLabel={`Open event ${r.id}: ${r.record}, ${r.description}`}
            subtitle={`${r.actorId ? (r.actorName ?? r.actorUsername) : 'System or visitor'} · ${entityWords(r.entityType)}`}
            meta={[formatDateTime(r.occurredAt), r.ip].filter(Boolean).join(' · ')}
          />
        )}
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="action"
              label="Action"
              allLabel="All actions"
              options={(facets.data?.actions ?? []).map((a) => ({ value: a, label: a }))}
              className="sm:w-56"
            />
            <DataTableFilterSelect
              query={query}
              name="entityType"
              label="Entity type"
              allLabel="All entity types"
              options={(facets.data?.entityTypes ?? []).map((a) => ({ value: a, label: entityWords(a) }))}
            />
            <DateRangeFilter query={query} label="Events" />
          </>
        }
        empty={<p className="text-sm text-muted-foreground">Nothing has been recorded yet.</p>}
      />
      <AuditEventDialog id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
