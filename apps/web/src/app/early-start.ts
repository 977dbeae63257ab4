import type { QueryClient } from '@tanstack/react-query';
import { currentUserQueryOptions } from '@/lib/current-user';
import { dashboardQueryOptions } from '@/features/dashboard';
import { onboardingQueryOptions } from '@/features/onboarding';
import { hasValidSession } from '@/lib/auth-storage';
import { closeEarlyResponses } from '@/lib/early-responses';
import { DASHBOARD_ROUTE, resolveRoute } from './resolve-route';

/**
 * On a slow network every step of "entry script → session check → frame and screen chunks →
 * screen data" is a round trip of its own. With a stored session the visitor is almost always
 * still signed in, so the session check, the frame's chunk, the screen's chunk and the dashboard's
 * figures and checklist all start at once, before the first render; the router and the screen then find them
 * in flight (same query keys, same module specifiers). If the session turns out to be over, the
 * router still decides what shows: nothing here renders anything.
 */
export function startEarly(client: QueryClient, path = window.location.pathname) {
  // The page's early script may have asked for these reads already: each is taken by the prefetch
  // below (which calls the API before this task ends), and whatever is left is dropped then.
  setTimeout(closeEarlyResponses, 0);
  if (!hasValidSession()) return;
  void client.prefetchQuery(currentUserQueryOptions());
  const route = resolveRoute(path, true);
  if (route.frame !== 'shell') return;
  void import('./layout/app-shell').catch(() => undefined);
  void route.load().catch(() => undefined);
  if (route === DASHBOARD_ROUTE) {
    void client.prefetchQuery(dashboardQueryOptions());
    void client.prefetchQuery(onboardingQueryOptions());
  }
}
