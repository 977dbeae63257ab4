import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PasswordStatusItem } from '@outlay/contracts/users';
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
import { SiblingScreens } from '@/components/sibling-screens';
import { RoleBadge, StatusBadge } from '@/components/status-badges';
import { Badge } from '@/components/ui/badge';
import { toast } from '@/components/ui/use-toast';
import { useAuth } from '@/lib/current-user';
import { formatDateTime, plural } from '@/lib/format';
import { useForcePasswordChange } from '../api/user-force-password-change';
import { useUserOptions } from '../api/user-options';
import { resetUserPassword } from '../api/user-reset-password';
import { PASSWORDS_URL, invalidateUsers } from '../api/users-keys';
import { UserTempPasswordDialog, type TemporaryPasswordShown } from '../components/user-temp-password-dialog';

function passwordCell(u: PasswordStatusItem) {
  if (u.tempPasswordExpiresAt) {
    return u.tempPasswordExpired ? (
      <Badge variant="danger">Temporary, expired</Badge>
    ) : (
      <div>
        <Badge variant="warning">Temporary</Badge>
        <div className="mt-1 text-xs text-muted-foreground">Expires {formatDateTime(u.tempPasswordExpiresAt)}</div>
      </div>
    );
  }
  if (u.requirePasswordChange) return <Badge variant="warning">Must change</Badge>;
  return <Badge variant="success">Set</Badge>;
}

function ageText(days: number | null): string {
  if (days === null) return '—';
  if (days === 0) return 'Today';
  return plural(days, 'day');
}

const COLUMNS: DataTableColumn<PasswordStatusItem>[] = [
  {
    id: 'name',
    header: 'Name',
    sortable: true,
    hideable: false,
    cell: (u) => (
      <div className="min-w-0">
        <div className="font-medium text-foreground">{u.name}</div>
        <div className="text-xs text-muted-foreground">{u.username}</div>
      </div>
    ),
  },
  { id: 'role', header: 'Role', sortable: true, cell: (u) => <RoleBadge role={u.role} /> },
  { id: 'organization', header: 'Organization', sortable: true, accessor: (u) => u.organization?.name },
  { id: 'status', header: 'Status', sortable: true, cell: (u) => <StatusBadge status={u.status} /> },
  { id: 'password', header: 'Password', sortKey: 'tempPasswordExpiresAt', sortable: true, cell: passwordCell },
  {
    id: 'passwordChangedAt',
    header: 'Password age',
    sortable: true,
    align: 'right',
    accessor: (u) => ageText(u.passwordAgeDays),
  },
  {
    id: 'twoFactorEnabled',
    header: 'Two-factor',
    sortable: true,
    cell: (u) => (u.twoFactorEnabled ? <Badge variant="success">Enabled</Badge> : <Badge>Off</Badge>),
  },
  {
    id: 'lastLoginAt',
    header: 'Last sign-in',
    sortable: true,
    hidden: true,
    accessor: (u) => formatDateTime(u.lastLoginAt) ?? 'Never',
  },
];

const TWO_FACTOR_OPTIONS = [
  { value: 'enabled', label: 'Two-factor on' },
  { value: 'disabled', label: 'Two-factor off' },
];
const STATE_OPTIONS = [
  { value: 'temporary', label: 'Temporary password' },
  { value: 'change_required', label: 'Must change' },
  { value: 'set', label: 'Password set' },
];

type Pending = { kind: 'reset' | 'force'; user: PasswordStatusItem };

export default function UserPasswordManagementPage() {
  const query = useListQuery<PasswordStatusItem>({
    url: PASSWORDS_URL,
    filters: ['organizationId', 'twoFactor', 'passwordState'],
    defaultSort: 'name',
  });
  const options = useUserOptions();
  // The Settings menu's roles open the screen; only users.manage resets or forces a password.
  const canManage = useHolds('users.manage');
  const queryClient = useQueryClient();
  const { user: me } = useAuth();
  const stepUp = useStepUp();
  const force = useForcePasswordChange();
  const [pending, setPending] = useState<Pending | null>(null);
  const [shown, setShown] = useState<TemporaryPasswordShown | null>(null);

  const confirm = async () => {
    if (!pending) return;
    const { user } = pending;
    if (pending.kind === 'reset') {
      const result = await stepUp.withStepUp(resetUserPassword)(user.id);
      await invalidateUsers(queryClient);
      setShown({
        title: 'Password reset',
        name: user.name,
        username: user.username,
        password: result.temporaryPassword,
        expiresAt: result.temporaryPasswordExpiresAt,
      });
    } else {
      const result = await force.mutateAsync(user.id);
      toast({ title: result.message, variant: 'success' });
    }
  };

  const actionsOf = (u: PasswordStatusItem) =>
    !canManage || u.id === me?.id ? null : (
      <DataTableRowActions
        label={`Password actions for ${u.name}`}
        actions={[
          { label: 'Reset password', onSelect: () => setPending({ kind: 'reset', user: u }) },
          {
            label: 'Force password change',
            disabled: u.requirePasswordChange,
            onSelect: () => setPending({ kind: 'force', user: u }),
          },
        ]}
      />
    );

  return (
    <div>
      <PageHeader
        title="User Password Management"
        description="Password age, temporary passwords and two-factor status; reset a password or force a change."
      />
      {!canManage && <ReadOnlyNote />}
      <SiblingScreens />
      <DataTable
        label="Passwords"
        entityName="users"
        columns={COLUMNS}
        query={query}
        exportFilename="password-status"
        searchPlaceholder="Search name, username or e-mail"
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
              name="passwordState"
              label="Password"
              allLabel="Any password"
              options={STATE_OPTIONS}
            />
            <DataTableFilterSelect
              query={query}
              name="twoFactor"
              label="Two-factor"
              allLabel="Any two-factor"
              options={TWO_FACTOR_OPTIONS}
            />
          </>
        }
        rowActions={canManage ? actionsOf : undefined}
        renderCard={(u) => (
          <ListCard
            title={u.name}
            badge={passwordCell(u)}
            actions={actionsOf(u)}
            subtitle={[u.username, u.organization?.name].filter(Boolean).join(' · ')}
            meta={`Password age ${ageText(u.passwordAgeDays)} · two-factor ${u.twoFactorEnabled ? 'enabled' : 'off'}`}
          />
        )}
      />
      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={
          pending?.kind === 'reset'
            ? `Reset ${pending.user.name}'s password?`
            : `Make ${pending?.user.name} choose a new password?`
        }
        description={
          pending?.kind === 'reset'
            ? 'A temporary password replaces the current one and is shown to you once. They are signed out everywhere and must set a new password when they sign in.'
            : 'Their next action asks them for a new password before they can continue.'
        }
        destructive={pending?.kind === 'reset'}
        confirmLabel={pending?.kind === 'reset' ? 'Reset password' : 'Force change'}
        pendingLabel="Working…"
        onConfirm={confirm}
      />
      <UserTempPasswordDialog shown={shown} onClose={() => setShown(null)} />
      {stepUp.dialog}
    </div>
  );
}
