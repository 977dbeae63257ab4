import { AtSign, Building2, Clock, Mail, Phone } from 'lucide-react';
import type { Profile } from '@outlay/contracts/auth';
import { RoleBadge, StatusBadge } from '@/components/status-badges';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Card, CardContent } from '@/components/ui/card';
import { formatDateTime, fullName, initials } from '@/lib/format';

export function ProfileHeaderCard({ profile }: { profile: Profile }) {
  const lastLogin = formatDateTime(profile.lastLoginAt);
  return (
    <Card>
      <CardContent className="flex flex-col gap-5 pt-6 sm:flex-row sm:items-center">
        <Avatar className="size-16">
          <AvatarFallback className="text-xl">{initials(profile)}</AvatarFallback>
        </Avatar>
        <div className="flex min-w-0 flex-1 flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="text-xl font-semibold tracking-tight" data-testid="profile-name">
              {fullName(profile)}
            </h2>
            <RoleBadge role={profile.role} />
            <StatusBadge status={profile.status} />
          </div>
          <ul className="flex flex-col gap-x-5 gap-y-1.5 text-sm text-muted-foreground sm:flex-row sm:flex-wrap">
            <li className="flex min-w-0 items-center gap-1.5">
              <Mail className="size-4 shrink-0" aria-hidden="true" />
              <span className="truncate">{profile.email}</span>
            </li>
            <li className="flex items-center gap-1.5">
              <AtSign className="size-4 shrink-0" aria-hidden="true" />@{profile.username}
            </li>
            {profile.phoneNumber && (
              <li className="flex items-center gap-1.5">
                <Phone className="size-4 shrink-0" aria-hidden="true" />
                {profile.phoneNumber}
              </li>
            )}
            <li className="flex items-center gap-1.5">
              <Building2 className="size-4 shrink-0" aria-hidden="true" />
              Organization Member
            </li>
            {lastLogin && (
              <li className="flex items-center gap-1.5">
                <Clock className="size-4 shrink-0" aria-hidden="true" />
                Last login {lastLogin}
              </li>
            )}
          </ul>
        </div>
      </CardContent>
    </Card>
  );
}
