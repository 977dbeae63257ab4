import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Command } from 'cmdk';
import { ArrowRight, CornerDownLeft, Search } from 'lucide-react';
import { useMemo, type RefObject } from 'react';
import { useLocation } from 'wouter';
import { SEARCH_RESULT_TYPE_LABELS } from '@outlay/contracts/search';
import type { CurrentUser } from '@outlay/contracts/auth';
import { DialogOverlay } from '@/components/ui/dialog';
import { useSearch } from '@/features/search';
import { useDebounced } from '@/lib/use-debounced';
import { screensFor, SETTINGS_SECTIONS, type RouteEntry } from '@/lib/route-catalogue';
import { seesAdminMenus } from './nav-model';

interface PaletteGroup {
  heading: string;
  routes: RouteEntry[];
}

/**
 * The palette's groups follow the menus the user sees; screens of no menu the user sees (those
 * without a menu, and the Admin and Settings ones for roles without those menus) come last.
 */
function groupsOf(routes: RouteEntry[], admin: boolean): PaletteGroup[] {
  const headingOf = (route: RouteEntry): string => {
    const menu = route.menus?.[0];
    if (!menu || (!admin && (menu.menu === 'admin' || menu.menu === 'settings'))) return 'More screens';
    if (menu.menu === 'main') return 'Main';
    if (menu.menu === 'admin') return 'Admin';
    if (menu.menu === 'settings') return `Settings · ${menu.section}`;
    return 'Account';
  };
  const order = ['Main', 'Admin', ...SETTINGS_SECTIONS.map((s) => `Settings · ${s}`), 'Account', 'More screens'];
  const byHeading = new Map<string, RouteEntry[]>();
  for (const route of routes) {
    const heading = headingOf(route);
    byHeading.set(heading, [...(byHeading.get(heading) ?? []), route]);
  }
  return order.filter((h) => byHeading.has(h)).map((heading) => ({ heading, routes: byHeading.get(heading)! }));
}

const GROUP_HEADING =
  '[&_[cmdk-group-heading]]:px-2 [&_[cmdk-group-heading]]:pb-1 [&_[cmdk-group-heading]]:pt-2 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-semibold [&_[cmdk-group-heading]]:uppercase [&_[cmdk-group-heading]]:tracking-wide [&_[cmdk-group-heading]]:text-muted-foreground';

export interface CommandPaletteDialogProps {
  user: CurrentUser;
  open: boolean;
  setOpen: (open: boolean) => void;
  text: string;
  setText: (text: string) => void;
  /** Where focus goes back when the palette closes. */
  returnTo: RefObject<HTMLElement | null>;
}

/**
 * The palette itself: every screen the user may open, from the route catalogue filtered by the
 * user's permissions (so it never offers a screen the server would refuse), and what is typed
 * searched across the records (GET /api/search, debounced), whose results come under the screens.
 */
export default function CommandPaletteDialog({
  user,
  open,
  setOpen,
  text,
  setText,
  returnTo,
}: CommandPaletteDialogProps) {
  const [, navigate] = useLocation();
  const words = useDebounced(text.trim().length >= 2 ? text.trim() : '', 250);
  const found = useSearch(open ? words : '', 8);
  const admin = seesAdminMenus(user);
  const groups = useMemo(() => groupsOf(screensFor(user.permissions), admin), [user.permissions, admin]);

  const go = (path: string) => {
    setOpen(false);
    setText('');
    navigate(path);
  };

  return (
    <DialogPrimitive.Root open={open} onOpenChange={setOpen}>
      <DialogPrimitive.Portal>
        <DialogOverlay />
        <DialogPrimitive.Content
          data-testid="command-palette"
          aria-describedby={undefined}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (returnTo.current?.isConnected) returnTo.current.focus();
          }}
          className="fixed left-1/2 top-[12vh] z-50 w-[calc(100%-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-xl border bg-card shadow-xl animate-fade-in"
        >
          <DialogPrimitive.Title className="sr-only">Go to a screen</DialogPrimitive.Title>
          <Command label="Screen name" loop>
            <div className="flex items-center gap-2 border-b px-3">
              <Search className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <Command.Input
                value={text}
                onValueChange={setText}
                placeholder="Type a screen's name, or search…"
                className="h-12 w-full bg-transparent text-sm outline-none placeholder:text-slate-500"
              />
            </div>
            <Command.List label="Screens" className="max-h-[min(60vh,28rem)] overflow-y-auto overscroll-contain p-1.5">
              <Command.Empty className="px-3 py-6 text-center text-sm text-muted-foreground">
                No screen by that name.
              </Command.Empty>
              {groups.map((group) => (
                <Command.Group key={group.heading} heading={group.heading} className={GROUP_HEADING}>
                  {group.routes.map((route) => (
                    <Command.Item
                      key={route.path}
                      // Titles repeat nowhere, but the path keeps each item's value unique anyway.
                      value={`${route.title} ${route.path}`}
                      keywords={[route.path.replace(/[/-]/g, ' ')]}
                      onSelect={() => go(route.path)}
                      data-href={route.path}
                      className="group flex cursor-pointer items-center justify-between gap-3 rounded-md px-2 py-2 text-sm data-[selected=true]:bg-blue-50 data-[selected=true]:text-primary"
                    >
                      <span className="truncate">{route.title}</span>
                      <CornerDownLeft
                        className="size-3.5 shrink-0 opacity-0 group-data-[selected=true]:opacity-70"
                        aria-hidden="true"
                      />
                    </Command.Item>
                  ))}
                </Command.Group>
              ))}
              {words && (
                <Command.Group forceMount heading="Search results" className={GROUP_HEADING}>
                  {found.isLoading && (
                    <Command.Loading>
                      <p className="px-2 py-2 text-sm text-muted-foreground">Searching…</p>
                    </Command.Loading>
                  )}
                  {found.isError && (
                    <p className="px-2 py-2 text-sm text-destructive">Search is unavailable right now.</p>
                  )}
                  {found.data?.results.map((r) => (
                    <Command.Item
                      key={`${r.type}:${r.id}`}
                      forceMount
                      value={`search ${r.type} ${r.id}`}
                      onSelect={() => go(r.href)}
                      data-href={r.href}
                      className="group flex cursor-pointer items-center justify-between gap-3 rounded-md px-2 py-2 text-sm data-[selected=true]:bg-blue-50 data-[selected=true]:text-primary"
                    >
                      <span className="min-w-0 truncate">
                        <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 text-[11px] font-semibold text-slate-700">
                          {SEARCH_RESULT_TYPE_LABELS[r.type]}
                        </span>
                        {r.title}
                      </span>
                      <CornerDownLeft
                        className="size-3.5 shrink-0 opacity-0 group-data-[selected=true]:opacity-70"
                        aria-hidden="true"
                      />
                    </Command.Item>
                  ))}
                  {found.data && (
                    <Command.Item
                      forceMount
                      value="search all results"
                      onSelect={() => go(`/ai-search?q=${encodeURIComponent(words)}`)}
                      data-href="/ai-search"
                      className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm text-primary data-[selected=true]:bg-blue-50"
                    >
                      <ArrowRight className="size-3.5" aria-hidden="true" />
                      {found.data.results.length === 0
                        ? `No records match “${words}”: open AI Search`
                        : 'All results in AI Search'}
                    </Command.Item>
                  )}
                </Command.Group>
              )}
            </Command.List>
            <p className="border-t px-3 py-2 text-xs text-muted-foreground">
              <kbd className="font-sans">↑</kbd> <kbd className="font-sans">↓</kbd> to move ·{' '}
              <kbd className="font-sans">Enter</kbd> to open · <kbd className="font-sans">Esc</kbd> to close
            </p>
          </Command>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
