import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { defineMessages } from '@/lib/i18n/define-messages';
import { Link, useLocation } from 'wouter';
import type { CurrentUser } from '@outlay/contracts/auth';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { fullName, initials, roleLabel } from '@/lib/format';
import { useLogout } from '@/features/auth';
import { useRouteTitle } from '@/lib/i18n/route-titles';
import { navMessages } from './nav-messages';
import { AVATAR_ITEMS } from './nav-model';
import { useI18n } from '@/lib/i18n/i18n';

const messages = defineMessages({
  accountMenu: { id: 'nav.accountMenu', defaultMessage: 'Account menu for {name}, initials {initials}' },
});

/** Avatar with initials; the 200 ms tooltip names the user (docs/product.md §6.1). */
export function UserMenu({ user }: { user: CurrentUser }) {
  const [location] = useLocation();
  // Open only at the location where it was opened: a route change closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location;
  const setOpen = (next: boolean) => setOpenAt(next ? location : null);
  const logout = useLogout();
  const { t } = useI18n();
  const title = useRouteTitle();

  const name = fullName(user) || user.username;
  return (
    <DropdownMenu open={open} onOpenChange={setOpen}>
      <Tooltip>
        <TooltipTrigger asChild>
          <DropdownMenuTrigger
            className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring cursor-pointer"
            // The initials are what the button shows: its name carries them too (WCAG 2.5.3).
            aria-label={t(messages.accountMenu, { name, initials: initials(user) })}
            data-testid="avatar-button"
          >
            <Avatar>
              <AvatarFallback>{initials(user)}</AvatarFallback>
            </Avatar>
          </DropdownMenuTrigger>
        </TooltipTrigger>
        <TooltipContent side="bottom" align="end" data-testid="avatar-tooltip">
          <p className="font-semibold">{name}</p>
          <p className="text-slate-300">{user.email}</p>
          <p className="text-slate-300">{roleLabel(user.role)}</p>
        </TooltipContent>
      </Tooltip>
      <DropdownMenuContent align="end" className="w-64">
        <DropdownMenuLabel className="normal-case tracking-normal">
          <span className="block text-sm font-semibold text-foreground">{name}</span>
          <span className="block truncate text-xs font-normal text-muted-foreground">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        {AVATAR_ITEMS.map((item) => (
          <DropdownMenuItem key={item.href} asChild>
            <Link href={item.href}>{title(item.href, item.label)}</Link>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void logout()} className="text-red-700">
          <LogOut aria-hidden="true" className="!text-red-700" /> {t(navMessages.logout)}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
