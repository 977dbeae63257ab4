import { UserCog } from 'lucide-react';
import { useState } from 'react';
import { PERMISSION_LABELS, SCOPE_LABELS, type Role } from '@outlay/contracts/roles';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { QueryState } from '@/components/query-state';
import { RouteLink } from '@/components/route-link';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { ROLE_PEOPLE_URL, roleHoldersUrl, useRolesOverview } from '../api/role-overview';
import { RoleHoldersTable } from '../components/role-holders-table';

/** /role-management: system roles, their permissions, who holds each; change roles (docs/product.md §3.10). */
export default function RoleManagementPage() {
  const overview = useRolesOverview();
  // The Settings menu's roles open the screen; only roles.manage changes anyone's role.
  const canManage = useHolds('roles.manage');
  const [selected, setSelected] = useState<Role | 'all'>('all');
  const roles = overview.data?.roles ?? [];
  const current = selected === 'all' ? null : roles.find((r) => r.role === selected);

  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Role Management"
        description="What each system role may do and at which scope, and who holds it. Role changes need your password confirmed within the last 10 minutes."
        actions={<RouteLink path="/custom-roles" icon={<UserCog aria-hidden="true" />} />}
      />
      {!canManage && <ReadOnlyNote />}
      <QueryState query={overview} loadingLabel="Loading roles" errorMessage="Roles could not be loaded.">
        {(data) => (
          <>
            <nav aria-label="Roles" className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
              <RoleButton
                active={selected === 'all'}
                onClick={() => setSelected('all')}
                title="Everyone"
                subtitle={canManage ? 'All people you manage' : 'All people you can see'}
              />
              {roles.map((r) => (
                <RoleButton
                  key={r.role}
                  active={selected === r.role}
                  onClick={() => setSelected(r.role)}
                  title={r.label}
                  subtitle={`${SCOPE_LABELS[r.scope]} · ${r.holders} ${r.holders === 1 ? 'holder' : 'holders'}`}
                />
              ))}
            </nav>
            {current && (
              <Card>
                <CardHeader>
                  <CardTitle>{current.label}</CardTitle>
                  <CardDescription>
                    Scope: {SCOPE_LABELS[current.scope]} · {current.activeHolders} active of {current.holders} holders
                  </CardDescription>
                </CardHeader>
                <CardContent>
                  <ul className="flex flex-wrap gap-2" aria-label={`Permissions of ${current.label}`}>
                    {current.permissions.map((p) => (
                      <li key={p}>
                        <Badge variant="outline" title={p}>
                          {PERMISSION_LABELS[p]}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                </CardContent>
              </Card>
            )}
            <section aria-labelledby="holders-heading" className="flex flex-col gap-3">
              <h2 id="holders-heading" className="text-lg font-semibold">
                {current
                  ? `People with the ${current.label} role`
                  : canManage
                    ? 'Everyone you manage'
                    : 'Everyone you can see'}
              </h2>
              <RoleHoldersTable
                key={selected}
                url={selected === 'all' ? ROLE_PEOPLE_URL : roleHoldersUrl(selected)}
                label={current ? `Holders of ${current.label}` : 'People'}
                customRoles={data.customRoles}
              />
            </section>
          </>
        )}
      </QueryState>
    </div>
  );
}

function RoleButton({
  active,
  onClick,
  title,
  subtitle,
}: {
  active: boolean;
  onClick: () => void;
  title: string;
  subtitle: string;
}) {
  return (
    <button
      type="button"
      aria-pressed={active}
      onClick={onClick}
      className={cn(
        'flex flex-col rounded-lg border bg-card px-3 py-2 text-left transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
        active && 'border-primary ring-1 ring-primary',
      )}
    >
      <span className="font-medium">{title}</span>
      <span className="text-xs text-muted-foreground">{subtitle}</span>
    </button>
  );
}
