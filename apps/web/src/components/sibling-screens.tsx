import { Link, useLocation } from 'wouter';
import { findRoute, mayOpen } from '@/lib/route-catalogue';
import { useAuth } from '@/lib/current-user';

/**
 * Screens the seed names more than once for one job. Each keeps its route and says what it is
 * for, beside the others of its family, so nobody wonders which one to use.
 */
const FAMILIES: { label: string; screens: { path: string; purpose: string }[] }[] = [
  {
    label: 'Request forms',
    screens: [
      { path: '/new-request', purpose: 'one amount, quickest for most purchases and reimbursements' },
      {
        path: '/advanced-request',
        purpose: 'line items with tax, split across departments, foreign currency, advances, repeats',
      },
      { path: '/smart-form', purpose: 'describe the spend and get the category, vendor and department suggested' },
    ],
  },
  {
    label: 'Policy screens',
    screens: [
      { path: '/policy-management', purpose: 'the list of rules: switch them on and off, edit limits' },
      {
        path: '/enhanced-policy-management',
        purpose: 'rules with conditions, priorities, dates and versions, tried on past requests',
      },
    ],
  },
  {
    label: 'User screens',
    screens: [
      { path: '/user-management', purpose: 'one person at a time: create, edit, activate, deactivate' },
      { path: '/enhanced-user-management', purpose: 'many at once: import, export, bulk role and status changes' },
      {
        path: '/user-password-management',
        purpose: 'passwords and two-factor: resets, forced changes, temporary passwords',
      },
    ],
  },
  {
    label: 'Dashboards',
    screens: [
      { path: '/', purpose: 'your day: requests, queue, figures and alerts' },
      { path: '/real-time-monitoring', purpose: 'the same figures and the live activity feed, for a screen left open' },
    ],
  },
];

/** "This screen is for …; for … use X" under a page title, for the screens of one family. */
export function SiblingScreens({ path: given }: { path?: string }) {
  const [location] = useLocation();
  const { user } = useAuth();
  const path = given ?? location;
  const family = FAMILIES.find((f) => f.screens.some((s) => s.path === path));
  if (!family || !user) return null;
  const self = family.screens.find((s) => s.path === path)!;
  const others = family.screens
    .filter((s) => s.path !== path)
    .flatMap((s) => {
      const route = findRoute(s.path);
      return route && mayOpen(route, user.permissions) ? [{ ...s, title: route.title }] : [];
    });
  return (
    <nav
      aria-label={`${family.label}: which to use`}
      className="mb-4 rounded-md border bg-card px-3 py-2 text-sm text-muted-foreground"
      data-testid="sibling-screens"
    >
      <p>
        <span className="font-medium text-foreground">This screen:</span> {self.purpose}.
      </p>
      {others.length > 0 && (
        <ul className="mt-1 flex flex-col gap-0.5">
          {others.map((o) => (
            <li key={o.path}>
              For {o.purpose}:{' '}
              <Link href={o.path} className="font-medium text-blue-700 underline-offset-2 hover:underline">
                {o.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </nav>
  );
}
