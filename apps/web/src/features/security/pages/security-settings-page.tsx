import { PageHeader } from '@/components/page-header';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { useAuth } from '@/features/auth/api/current-user';
import { messageOf } from '@/lib/api-error';
import { useSecuritySettings } from '../api/security-settings';
import { SecuritySettingsForm } from '../components/security-settings-form';
import { formatDateTime } from '@/lib/format';

/** /security: password policy, lockout, session lifetimes, 2FA per role, authorized domains (PRODUCT §3). */
export default function SecuritySettingsPage() {
  const settings = useSecuritySettings();
  const { user } = useAuth();
  return (
    <div>
      <PageHeader
        title="Security Settings"
        description="These settings drive sign-in, passwords, sessions and registration as soon as they are saved. Every change is recorded in the audit history."
      />
      {settings.isPending ? (
        <div className="flex justify-center py-16">
          <Spinner label="Loading security settings" />
        </div>
      ) : settings.isError ? (
        <Alert variant="danger" role="alert">
          <p>{messageOf(settings.error, 'The security settings could not be loaded.')}</p>
        </Alert>
      ) : (
        <>
          {settings.data.updatedAt && (
            <p className="mb-4 text-sm text-muted-foreground">Last changed {formatDateTime(settings.data.updatedAt)}</p>
          )}
          <SecuritySettingsForm key={settings.data.updatedAt ?? 'defaults'} settings={settings.data} currentRole={user?.role} twoFactorEnabled={user?.twoFactorEnabled ?? false} />
        </>
      )}
    </div>
  );
}
