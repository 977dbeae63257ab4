import { QueryState } from '@/components/query-state';
import type { PolicyRule } from '@outlay/contracts/policies';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { formatDateTime, plural } from '@/lib/format';
import { usePolicyVersions } from '../api/policies';

function describe(snapshot: Record<string, unknown>): string {
  const params = (snapshot.params ?? {}) as Record<string, unknown>;
  const parts = [
    `${String(snapshot.action)}`,
    snapshot.active ? 'active' : 'inactive',
    `priority ${String(snapshot.priority)}`,
  ];
  for (const [k, v] of Object.entries(params))
    if (v !== null && v !== undefined && k !== 'vendorIds') parts.push(`${k} ${String(v)}`);
  if (Array.isArray(params.vendorIds)) parts.push(plural(params.vendorIds.length, 'vendor'));
  if (snapshot.effectiveFrom || snapshot.effectiveTo)
    parts.push(`effective ${String(snapshot.effectiveFrom ?? '…')} – ${String(snapshot.effectiveTo ?? '…')}`);
  if (snapshot.conditions) parts.push('with conditions');
  return parts.join(' · ');
}

/** The version history of a rule: who changed it, when, and what it was. */
export function VersionsDialog({ rule, onClose }: { rule: PolicyRule | null; onClose: () => void }) {
  const versions = usePolicyVersions(rule?.id ?? null);
  return (
    <Dialog open={rule !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Versions of {rule?.name}</DialogTitle>
          <DialogDescription>Each request keeps the version it was checked against.</DialogDescription>
        </DialogHeader>
        <QueryState query={versions} loadingLabel="Loading the versions" errorMessage="Could not load the versions.">
          {(list) => (
            <ol className="flex flex-col gap-2" aria-label="Versions">
              {list.map((v) => (
                <li key={v.version} className="rounded-md border p-3 text-sm">
                  <p className="font-medium">
                    Version {v.version}
                    {v.version === rule?.version && (
                      <span className="ml-2 text-xs font-normal text-muted-foreground">(current)</span>
                    )}
                  </p>
                  <p className="text-muted-foreground">
                    {formatDateTime(v.createdAt)}
                    {v.changedByName ? ` · ${v.changedByName}` : ''}
                  </p>
                  <p className="mt-1">
                    <span className="font-medium">{String(v.snapshot.name)}</span>: {describe(v.snapshot)}
                  </p>
                </li>
              ))}
            </ol>
          )}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
