import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { useAuth } from '@/lib/current-user';
import { useSecuritySettings } from '../api/security-settings';
import { SecuritySettingsForm } from '../components/security-settings-form';
import { SecuritySettingsSummary } from '../components/security-settings-summary';
import { formatDateTime } from '@/lib/format';

/** /security: password policy, lockout, session lifetimes, 2FA per role, authorized domains (docs/product.md §3.10). */
export default function SecuritySettingsPage() {
  const settings = useSecuritySettings();
  const { user } = useAuth();
  // The Settings menu's roles open the screen; only security.manage changes the settings.
  const canManage = useHolds('security.manage');
  return (
    <div>
      <PageHeader
        title="Security Settings"
        description="These settings drive sign-in, passwords, sessions and registration as soon as they are saved. Every change is recorded in the audit history."
      />
      {!canManage && <ReadOnlyNote />}
      <QueryState
        query={settings}
        loadingLabel="Loading security settings"
        errorMessage="The security settings could not be loaded."
        className="py-16"
      >
        {(data) => (
          <>
            {data.updatedAt && (
              <p className="mb-4 text-sm text-muted-foreground">Last changed {formatDateTime(data.updatedAt)}</p>
            )}
            {canManage ? (
              <SecuritySettingsForm
                key={data.updatedAt ?? 'defaults'}
                settings={data}
                currentRole={user?.role}
                twoFactorEnabled={user?.twoFactorEnabled ?? false}
              />
            ) : (
              <SecuritySettingsSummary settings={data} />
            )}
          </>
        )}
      </QueryState>
    </div>
  );
}
