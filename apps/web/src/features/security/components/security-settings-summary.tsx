import type { ReactNode } from 'react';
import { ROLE_LABELS } from '@outlay/contracts/roles';
import type { SecuritySettings } from '@outlay/contracts/security';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMinutes, plural } from '@/lib/format';

function Value({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <dt className="text-sm text-muted-foreground">{label}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

/** The /security values for someone who may read them but not change them: the same cards as the form, as text. */
export function SecuritySettingsSummary({ settings }: { settings: SecuritySettings }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card>
        <CardHeader>
          <CardTitle>Passwords and lockout</CardTitle>
          <CardDescription>New passwords must be this long. Repeated failures lock the username.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 sm:grid-cols-2">
            <Value label="Minimum password length">{plural(settings.passwordMinLength, 'character')}</Value>
            <Value label="Lockout threshold">
              {plural(settings.lockoutThreshold, 'failed sign-in')} within 15 minutes
            </Value>
            <Value label="Lockout duration">{formatMinutes(settings.lockoutMinutes)}</Value>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Sessions</CardTitle>
          <CardDescription>How long a sign-in lasts, and how long it may sit unused.</CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-4 sm:grid-cols-2">
            <Value label="Session lifetime">{plural(settings.sessionLifetimeDays, 'day')}</Value>
            <Value label="Idle timeout">{formatMinutes(settings.idleTimeoutMinutes)}</Value>
          </dl>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Two-factor authentication</CardTitle>
          <CardDescription>
            People holding these roles must set up two-factor before they can do anything else.
          </CardDescription>
        </CardHeader>
        <CardContent>
          {settings.twoFactorRequiredRoles.length === 0 ? (
            <p className="text-sm text-muted-foreground">No role requires two-factor.</p>
          ) : (
            <ul className="flex flex-wrap gap-2" aria-label="Roles that require two-factor authentication">
              {settings.twoFactorRequiredRoles.map((role) => (
                <li key={role}>
                  <Badge variant="outline">{ROLE_LABELS[role]}</Badge>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Authorized e-mail domains</CardTitle>
          <CardDescription>Registration is open to these domains and their subdomains.</CardDescription>
        </CardHeader>
        <CardContent>
          {settings.authorizedDomains.length === 0 ? (
            <p className="text-sm text-muted-foreground">No domain is authorized.</p>
          ) : (
            <ul className="flex flex-col gap-1 font-mono text-sm" aria-label="Authorized e-mail domains">
              {settings.authorizedDomains.map((domain) => (
                <li key={domain} className="break-all">
                  {domain}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
