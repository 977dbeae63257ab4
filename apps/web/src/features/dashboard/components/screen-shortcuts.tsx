import { Link } from 'wouter';
import type { CurrentUser } from '@outlay/contracts/auth';
import { mayOpen, menuRoutes } from '@/lib/route-catalogue';
import { seesAdminMenus } from '@/lib/route-catalogue';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';

/** Screens every signed-in person opens anyway: the main menu, the account's, and the dashboard's quick links. */
const EVERYONE = new Set([
  'requests.read.own',
  'requests.create',
  'notifications.read',
  'communications.use',
  'profile.manage',
]);

/**
 * The Admin and Settings screens a person's permissions open, for roles the seed does not give
 * those menus (a subsidiary finance manager's payroll and budgets): their way in besides the
 * palette and search.
 */
export function screenShortcutsFor(user: Pick<CurrentUser, 'role' | 'permissions'>) {
  if (seesAdminMenus(user)) return [];
  return [...menuRoutes('admin'), ...menuRoutes('settings')].filter(
    (r) => r.permission && !EVERYONE.has(r.permission) && mayOpen(r, user.permissions),
  );
}

export function ScreenShortcuts({ user }: { user: Pick<CurrentUser, 'role' | 'permissions'> }) {
  const screens = screenShortcutsFor(user);
  if (screens.length === 0) return null;
  return (
    <Card>
      <CardHeader className="pb-2">
        <CardTitle id="screen-shortcuts" className="text-base">
          Your screens
        </CardTitle>
      </CardHeader>
      <CardContent>
        <nav aria-labelledby="screen-shortcuts">
          <ul className="flex flex-wrap gap-2">
            {screens.map((r) => (
              <li key={r.path}>
                <Link
                  href={r.path}
                  className="inline-flex items-center rounded-md border bg-card px-3 py-1.5 text-sm font-medium transition hover:border-blue-300 hover:bg-blue-50 focus-visible:outline-2 focus-visible:outline-ring"
                >
                  {r.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </CardContent>
    </Card>
  );
}
