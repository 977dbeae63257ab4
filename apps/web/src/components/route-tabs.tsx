import { Link, useLocation } from 'wouter';
import { useAuth } from '@/lib/current-user';
import { cn } from '@/lib/utils';
import { findRoute, mayOpen, type RouteEntry } from '@/lib/route-catalogue';

/**
 * Tabs between sibling screens (My Requests and Requests Management, Approvals and Approvals
 * Management). Each tab is a link to its own route, shown only to those the route's permission
 * admits; with fewer than two tabs left there is nothing to switch between, so nothing shows.
 */
export function RouteTabs({ paths, label }: { paths: string[]; label: string }) {
  const { user } = useAuth();
  const [location] = useLocation();
  if (!user) return null;
  const tabs = paths
    .map((path) => findRoute(path))
    .filter((route): route is RouteEntry => route !== undefined && mayOpen(route, user.permissions));
  if (tabs.length < 2) return null;
  return (
    <nav aria-label={label} className="mb-4 max-w-full overflow-x-auto" data-testid="route-tabs">
      <ul className="inline-flex h-10 items-center rounded-lg bg-slate-200/70 p-1">
        {tabs.map((tab) => {
          const active = location === tab.path;
          return (
            <li key={tab.path} className="h-full">
              <Link
                href={tab.path}
                aria-current={active ? 'page' : undefined}
                className={cn(
                  'inline-flex h-full items-center whitespace-nowrap rounded-md px-3 text-sm font-medium text-slate-700 transition-all hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
                  active && 'bg-card text-foreground shadow-sm',
                )}
              >
                {tab.title}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export const REQUEST_TABS = ['/requests', '/requests-management'];
export const APPROVAL_TABS = ['/approvals', '/approvals-management'];
