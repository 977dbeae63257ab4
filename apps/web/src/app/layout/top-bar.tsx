import { Settings, ShieldCheck } from 'lucide-react';
import { Link, useLocation } from 'wouter';
import type { CurrentUser } from '@outlay/contracts/auth';
import { Brand } from '@/components/brand';
import { CommunicationsBadge } from '@/features/communications';
import { NotificationBell } from '@/features/notifications';
import { RoleBadge } from '@/components/status-badges';
import { useRouteTitle } from '@/lib/i18n/route-titles';
import { cn } from '@/lib/utils';
import { CommandPalette } from './command-palette';
import { navMessages, sectionMessages } from './nav-messages';
import { NavDropdown } from './nav-dropdown';
import { ADMIN_ITEMS, isActive, MAIN_ITEMS, seesAdminMenus, SETTINGS_GROUPS } from './nav-model';
import { UserMenu } from './user-menu';
import { useI18n } from '@/lib/i18n/i18n';

export function TopBar({ user }: { user: CurrentUser }) {
  const [location] = useLocation();
  const admin = seesAdminMenus(user);
  const { t } = useI18n();
  const title = useRouteTitle();
  return (
    <header className="sticky top-0 z-40 border-b bg-card/95 backdrop-blur supports-[backdrop-filter]:bg-card/85">
      <div className="mx-auto flex h-16 max-w-[1400px] items-center gap-4 px-4 lg:px-6">
        <Link
          href="/"
          className="shrink-0 rounded-md focus-visible:outline-2 focus-visible:outline-ring"
          aria-label={t(navMessages.home)}
        >
          <Brand />
        </Link>
        <nav
          aria-label={t(navMessages.main)}
          className="hidden min-w-0 flex-1 items-center gap-0.5 lg:flex"
          data-testid="desktop-nav"
        >
          {MAIN_ITEMS.map(({ href, label, icon: Icon }) => {
            const active = isActive(href, location);
            return (
              <Link
                key={href}
                href={href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-100 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
                  active && 'bg-blue-50 text-primary hover:bg-blue-50 hover:text-primary',
                )}
              >
                {Icon && <Icon className="hidden size-4 2xl:block" aria-hidden="true" />}
                {title(href, label)}
              </Link>
            );
          })}
          {admin && (
            <>
              <span aria-hidden="true" className="mx-1 h-6 w-px bg-border" />
              <NavDropdown
                label={t(navMessages.admin)}
                icon={<ShieldCheck className="hidden size-4 2xl:block" aria-hidden="true" />}
                groups={[{ items: ADMIN_ITEMS }]}
              />
              <NavDropdown
                label={t(navMessages.settings)}
                icon={<Settings className="hidden size-4 2xl:block" aria-hidden="true" />}
                groups={SETTINGS_GROUPS.map((g) => ({
                  heading: t(sectionMessages[g.section]),
                  items: g.items,
                }))}
              />
            </>
          )}
        </nav>
        <div className="ms-auto flex min-w-0 items-center gap-2 sm:gap-3">
          <CommandPalette user={user} />
          {user.permissions.includes('communications.use') && <CommunicationsBadge />}
          <NotificationBell />
          {/* A long role (Subsidiary Finance Manager) must not push a phone's page sideways. */}
          <RoleBadge role={user.role} className="min-w-0 max-w-[8.5rem] sm:max-w-none" />
          <div className="hidden lg:block">
            <UserMenu user={user} />
          </div>
        </div>
      </div>
    </header>
  );
}
