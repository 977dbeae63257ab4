import { FileText, LogOut, MoreHorizontal } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { CurrentUser } from '@outlay/contracts/auth';
import { RoleBadge } from '@/components/status-badges';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import { Button } from '@/components/ui/button';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { fullName, initials } from '@/lib/format';
import { useRouteTitle } from '@/lib/i18n/route-titles';
import { cn } from '@/lib/utils';
import { useLogout } from '@/features/auth';
import { findRoute, mayOpen } from '@/lib/route-catalogue';
import {
  ADMIN_ITEMS,
  AVATAR_ITEMS,
  isActive,
  MAIN_ITEMS,
  seesAdminMenus,
  SETTINGS_GROUPS,
  type NavItem,
} from './nav-model';
import { navMessages, sectionMessages } from './nav-messages';
import { useI18n } from '@/lib/i18n/i18n';

const BAR_ITEMS = MAIN_ITEMS.slice(0, 4);
const MORE_MAIN_ITEMS = MAIN_ITEMS.slice(4);
const MY_REQUESTS = findRoute('/requests');

/**
 * The More group: the main items beyond the bar, and My Requests for those who do not see it in
 * the Admin group (a requester follows their requests from the phone too).
 */
function moreItems(user: CurrentUser, admin: boolean): NavItem[] {
  if (admin || !MY_REQUESTS || !mayOpen(MY_REQUESTS, user.permissions)) return MORE_MAIN_ITEMS;
  return [...MORE_MAIN_ITEMS, { href: MY_REQUESTS.path, label: MY_REQUESTS.title, icon: FileText }];
}

/** docs/product.md §6.1: on small screens, the first four main items plus More in a bottom bar. */
export function MobileNav({ user }: { user: CurrentUser }) {
  const [location] = useLocation();
  // Open only at the location where it was opened: a route change closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location;
  const setOpen = (next: boolean) => setOpenAt(next ? location : null);
  const { t } = useI18n();
  const title = useRouteTitle();

  return (
    <>
      <nav
        aria-label={t(navMessages.mobile)}
        data-testid="mobile-nav"
        className="fixed inset-x-0 bottom-0 z-40 border-t bg-card/95 pb-[env(safe-area-inset-bottom)] backdrop-blur lg:hidden"
      >
        <ul className="mx-auto grid max-w-lg grid-cols-5">
          {BAR_ITEMS.map(({ href, label, icon: Icon }) => {
            const active = isActive(href, location);
            return (
              <li key={href}>
                <Link
                  href={href}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'flex h-16 flex-col items-center justify-center gap-1 px-0.5 text-center text-[11px] font-medium leading-tight text-slate-600 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring',
                    active && 'text-primary',
                  )}
                >
                  {Icon && <Icon className="size-5" aria-hidden="true" />}
                  <span className="max-w-full">{title(href, label)}</span>
                </Link>
              </li>
            );
          })}
          <li>
            <button
              type="button"
              onClick={() => setOpen(true)}
              aria-haspopup="dialog"
              aria-expanded={open}
              className="flex h-16 w-full flex-col items-center justify-center gap-1 text-[11px] font-medium text-slate-600 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring cursor-pointer"
            >
              <MoreHorizontal className="size-5" aria-hidden="true" />
              {t(navMessages.more)}
            </button>
          </li>
        </ul>
      </nav>
      <Sheet open={open} onOpenChange={setOpen}>
        <SheetContent data-testid="more-sheet" aria-describedby="more-sheet-description">
          <MoreSheetBody user={user} location={location} />
        </SheetContent>
      </Sheet>
    </>
  );
}

function MoreSheetBody({ user, location }: { user: CurrentUser; location: string }) {
  const logout = useLogout();
  const { t } = useI18n();
  const admin = seesAdminMenus(user);
  const name = fullName(user) || user.username;
  return (
    <>
      <div className="flex items-center gap-3 border-b px-5 pb-4 pt-3">
        <Avatar className="size-11">
          <AvatarFallback>{initials(user)}</AvatarFallback>
        </Avatar>
        <div className="min-w-0 flex-1">
          <SheetTitle className="truncate font-semibold">{name}</SheetTitle>
          <SheetDescription id="more-sheet-description" className="truncate text-sm text-muted-foreground">
            {user.email}
          </SheetDescription>
          <RoleBadge role={user.role} className="mt-1" />
        </div>
      </div>
      <div className="flex-1 overflow-y-auto px-3 py-3">
        <SheetGroup heading={t(navMessages.more)} items={moreItems(user, admin)} location={location} />
        {admin && <SheetGroup heading={t(navMessages.admin)} items={ADMIN_ITEMS} location={location} />}
        {admin &&
          SETTINGS_GROUPS.map((group) => (
            <SheetGroup
              key={group.section}
              heading={t(navMessages.settingsSection, {
                section: t(sectionMessages[group.section]),
              })}
              items={group.items}
              location={location}
            />
          ))}
        <SheetGroup heading={t(navMessages.account)} items={AVATAR_ITEMS} location={location} />
      </div>
      <div className="border-t p-3">
        <Button variant="outline" className="w-full text-red-700" onClick={() => void logout()}>
          <LogOut aria-hidden="true" /> {t(navMessages.logout)}
        </Button>
      </div>
    </>
  );
}

function SheetGroup({ heading, items, location }: { heading: string; items: NavItem[]; location: string }) {
  const title = useRouteTitle();
  if (items.length === 0) return null;
  return (
    <section className="mb-3" aria-label={heading}>
      <h3 className="px-2 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-muted-foreground">{heading}</h3>
      <ul className="grid grid-cols-1 gap-0.5 sm:grid-cols-2">
        {items.map((item) => {
          const active = isActive(item.href, location);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'flex items-center gap-2 rounded-md px-2 py-2.5 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
                  active && 'bg-blue-50 font-medium text-primary',
                )}
              >
                {item.icon && <item.icon className="size-4 text-muted-foreground" aria-hidden="true" />}
                {title(item.href, item.label)}
              </Link>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
