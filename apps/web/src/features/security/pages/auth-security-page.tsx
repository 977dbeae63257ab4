import { SIGN_IN_REASONS, type SignInItem } from '@outlay/contracts/security';
import {
  DataTable,
  DataTableFilterSelect,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { Badge } from '@/components/ui/badge';
import { SIGN_INS_URL } from '../api/sign-ins';
import { DateRangeFilter } from '../components/date-range-filter';
import { LockedAccountsCard } from '../components/locked-accounts-card';
import { TwoFactorAdoptionCard } from '../components/two-factor-adoption-card';
import { formatDateTime } from '@/lib/format';

const RESULT_OPTIONS = [
  { value: 'true', label: 'Successful' },
  { value: 'false', label: 'Failed' },
];

function browserOf(userAgent: string | null): string {
  if (!userAgent) return '—';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : null;
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Mac OS X|Macintosh/.test(userAgent)
      ? 'macOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/.test(userAgent)
          ? 'iOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return browser ? `${browser}${os ? ` on ${os}` : ''}` : userAgent.slice(0, 40);
}

const COLUMNS: DataTableColumn<SignInItem>[] = [
  { id: 'createdAt', header: 'Time', sortable: true, hideable: false, cell: (r) => formatDateTime(r.createdAt) },
  {
    id: 'username',
    header: 'Username',
    sortable: true,
    cell: (r) => (
      <div className="flex flex-col">
        <span className="font-medium">{r.username}</span>
        {r.userName && <span className="text-xs text-muted-foreground">{r.userName}</span>}
      </div>
    ),
  },
  {
    id: 'success',
    header: 'Result',
    sortable: true,
    cell: (r) => <Badge variant={r.success ? 'success' : 'danger'}>{r.success ? 'Success' : 'Failed'}</Badge>,
  },
  { id: 'reason', header: 'Detail', sortable: true, cell: (r) => SIGN_IN_REASONS[r.reason] ?? r.reason },
  { id: 'ip', header: 'IP address', sortable: true, className: 'font-mono text-xs' },
  {
    id: 'userAgent',
    header: 'Device',
    cell: (r) => <span title={r.userAgent ?? undefined}>{browserOf(r.userAgent)}</span>,
  },
];

/** /auth-security: sign-in activity, locked accounts with unlock, 2FA adoption (docs/product.md §3.10). */
export default function AuthSecurityPage() {
  const query = useListQuery<SignInItem>({
    url: SIGN_INS_URL,
    filters: ['success', 'from', 'to'],
    defaultSort: 'createdAt',
    defaultOrder: 'desc',
  });
  // The Settings menu's roles open the screen; only security.manage unlocks anyone.
  const canManage = useHolds('security.manage');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Auth Security"
        description="Every sign-in attempt, what is locked out now, and how far two-factor has spread."
        className="mb-0"
      />
      {!canManage && <ReadOnlyNote />}
      <div className="grid gap-4 lg:grid-cols-2">
        <LockedAccountsCard />
        <TwoFactorAdoptionCard />
      </div>
      <section aria-labelledby="sign-in-activity-heading" className="flex flex-col gap-3">
        <h2 id="sign-in-activity-heading" className="text-lg font-semibold">
          Sign-in activity
        </h2>
        <DataTable
          label="Sign-in activity"
          entityName="sign-in attempts"
          columns={COLUMNS}
          query={query}
          searchPlaceholder="Search username, IP or device…"
          exportFilename="sign-in-activity"
          renderCard={(r) => (
            <ListCard
              title={r.userName ? `${r.username} · ${r.userName}` : r.username}
              badge={<Badge variant={r.success ? 'success' : 'danger'}>{r.success ? 'Success' : 'Failed'}</Badge>}
              subtitle={[SIGN_IN_REASONS[r.reason] ?? r.reason, browserOf(r.userAgent)].join(' · ')}
              meta={[formatDateTime(r.createdAt), r.ip].filter(Boolean).join(' · ')}
            />
          )}
          toolbar={
            <>
              <DataTableFilterSelect
                query={query}
                name="success"
                label="Result"
                allLabel="All results"
                options={RESULT_OPTIONS}
              />
              <DateRangeFilter query={query} label="Sign-ins" />
            </>
          }
          empty={<p className="text-sm text-muted-foreground">No sign-in attempts recorded yet.</p>}
        />
      </section>
    </div>
  );
}
