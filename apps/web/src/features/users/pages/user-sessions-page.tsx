import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { SessionItem } from '@outlay/contracts/users';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { ConfirmDialog, useStepUp } from '@/components/form';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { toast } from '@/components/ui/use-toast';
import { formatDateTime } from '@/lib/format';
import { useAuth } from '@/lib/current-user';
import { useUserOptions } from '../api/user-options';
import { revokeAllSessions, revokeSession } from '../api/user-sessions-revoke';
import { SESSIONS_URL, invalidateUsers } from '../api/users-keys';

const COLUMNS: DataTableColumn<SessionItem>[] = [
  {
    id: 'user',
    header: 'User',
    sortable: true,
    hideable: false,
    cell: (s) => (
      <div className="min-w-0">
        <div className="font-medium text-foreground">
          {s.user.name} {s.current && <Badge variant="primary">This device</Badge>}
        </div>
        <div className="text-xs text-muted-foreground">{s.user.username}</div>
      </div>
    ),
  },
  { id: 'organization', header: 'Organization', sortable: true, accessor: (s) => s.organization?.name },
  {
    id: 'device',
    header: 'Browser and system',
    cell: (s) => (
      <div className="min-w-0">
        <div>
          {s.browser} on {s.os}
        </div>
        <div className="truncate text-xs text-muted-foreground" title={s.deviceId}>
          Device {s.deviceId.slice(0, 8)}
        </div>
      </div>
    ),
  },
  { id: 'ip', header: 'IP address', sortable: true },
  { id: 'createdAt', header: 'Signed in', sortable: true, accessor: (s) => formatDateTime(s.createdAt) },
  { id: 'lastSeenAt', header: 'Last seen', sortable: true, accessor: (s) => formatDateTime(s.lastSeenAt) },
  { id: 'expiresAt', header: 'Expires', sortable: true, hidden: true, accessor: (s) => formatDateTime(s.expiresAt) },
  { id: 'userAgent', header: 'User agent', hidden: true, className: 'max-w-xs truncate' },
];

type Pending = { kind: 'one'; session: SessionItem } | { kind: 'all'; session: SessionItem };

export default function UserSessionsPage() {
  const query = useListQuery<SessionItem>({
    url: SESSIONS_URL,
    filters: ['organizationId', 'userId'],
    defaultSort: 'lastSeenAt',
    defaultOrder: 'desc',
  });
  const options = useUserOptions();
  // The Settings menu's roles open the screen; only users.manage signs anyone out from it.
  const canManage = useHolds('users.manage');
  const queryClient = useQueryClient();
  const stepUp = useStepUp();
  const [pending, setPending] = useState<Pending | null>(null);
  const session = pending?.session;
  const { user: me } = useAuth();
  const own = session !== undefined && session.user.id === me?.id;

  const confirm = async () => {
    if (!pending) return;
    const result =
      pending.kind === 'one'
        ? await stepUp.withStepUp(revokeSession)(pending.session.id)
        : await stepUp.withStepUp(revokeAllSessions)(pending.session.user.id);
    await invalidateUsers(queryClient);
    toast({ title: result.message, variant: 'success' });
  };

  const actionsOf = (s: SessionItem) => (
    <DataTableRowActions
      label={`Actions for ${s.user.name}'s session on ${s.browser}`}
      actions={[
        {
          label: 'Sign out this session',
          destructive: true,
          disabled: s.current,
          onSelect: () => setPending({ kind: 'one', session: s }),
        },
        {
          label: `Sign out all of ${s.user.name}'s sessions`,
          destructive: true,
          onSelect: () => setPending({ kind: 'all', session: s }),
        },
      ]}
    />
  );

  return (
    <div>
      <PageHeader
        title="User Sessions"
        description="Every active device session: who, which browser, from where, since when. End one or all of a user's."
      />
      {!canManage && <ReadOnlyNote />}
      <DataTable
        label="Sessions"
        columns={COLUMNS}
        query={query}
        searchPlaceholder="Search user, IP or browser"
        toolbar={
          <>
            <DataTableFilterSelect
              query={query}
              name="organizationId"
              label="Organization"
              allLabel="All organizations"
              options={(options.data?.organizations ?? []).map((o) => ({ value: o.id, label: o.name }))}
            />
            <DataTableFilterSelect
              query={query}
              name="userId"
              label="User"
              allLabel="All users"
              options={(options.data?.managers ?? []).map((m) => ({ value: m.id, label: m.name }))}
            />
          </>
        }
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(s) => (
          <ListCard
            title={s.user.name}
            badge={s.current ? <Badge variant="primary">This device</Badge> : undefined}
            actions={canManage ? actionsOf(s) : undefined}
            subtitle={`${s.browser} on ${s.os} · ${s.ip}`}
            meta={`Signed in ${formatDateTime(s.createdAt)} · last seen ${formatDateTime(s.lastSeenAt)}`}
          />
        )}
      />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={
          pending?.kind === 'one'
            ? `Sign out ${session?.user.name} on ${session?.browser}?`
            : `Sign out all of ${session?.user.name}'s sessions?`
        }
        description={
          pending?.kind === 'one'
            ? 'That browser is signed out on its next call and must sign in again.'
            : own
              ? 'Every other device you are signed in on is signed out; this one stays.'
              : `Every device ${session?.user.name} is signed in on is signed out on its next call.`
        }
        confirmLabel="Sign out"
        pendingLabel="Signing out…"
        onConfirm={confirm}
      />
      {stepUp.dialog}
    </div>
  );
}
