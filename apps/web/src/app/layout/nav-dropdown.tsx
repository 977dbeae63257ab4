import { ChevronDown } from 'lucide-react';
import { Fragment, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { useRouteTitle } from '@/lib/i18n/route-titles';
import { cn } from '@/lib/utils';
import { isActive, type NavItem } from './nav-model';

interface NavDropdownProps {
  label: string;
  icon: ReactNode;
  groups: { heading?: string; items: NavItem[] }[];
}

/** A top-bar menu (Admin, Settings); closes whenever the route changes (docs/product.md §6.1). */
export function NavDropdown({ label, icon, groups }: NavDropdownProps) {
  const [location] = useLocation();
  // Open only at the location where it was opened: a route change closes it.
  const [openAt, setOpenAt] = useState<string | null>(null);
  const open = openAt === location;
  const setOpen = (next: boolean) => setOpenAt(next ? location : null);
  const title = useRouteTitle();
  const active = groups.some((g) => g.items.some((item) => isActive(item.href, location)));

  return (
    <DropdownMenu open={open} onOpenChange={setOpen}>
      <DropdownMenuTrigger
        className={cn(
          'inline-flex items-center gap-1.5 rounded-md px-3 py-2 text-sm font-medium text-slate-700 transition-colors hover:bg-slate-100 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring data-[state=open]:bg-slate-100 cursor-pointer',
          active && 'text-primary',
        )}
      >
        {icon}
        {label}
        <ChevronDown className="size-4 opacity-60" aria-hidden="true" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className={groups.length > 1 ? 'w-72' : 'w-64'}>
        {groups.map((group, index) => (
          <Fragment key={group.heading ?? index}>
            {index > 0 && <DropdownMenuSeparator />}
            <DropdownMenuGroup aria-label={group.heading ?? label}>
              {group.heading && <DropdownMenuLabel aria-hidden="true">{group.heading}</DropdownMenuLabel>}
              {group.items.map((item) => (
                <DropdownMenuItem key={item.href} asChild>
                  <Link href={item.href} aria-current={isActive(item.href, location) ? 'page' : undefined}>
                    {title(item.href, item.label)}
                  </Link>
                </DropdownMenuItem>
              ))}
            </DropdownMenuGroup>
          </Fragment>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
