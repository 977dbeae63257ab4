import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useSearch } from 'wouter';
import { LoadingScreen } from '@/components/loading-screen';
import { applyForceLogin } from '@/lib/session-guards';
import { useAuth } from '@/lib/current-user';
import { resolveRoute } from './resolve-route';
import { RoutePage } from './route-page';

// The navigation frame is its own chunk so the sign-in screen does not pay for it.
const AppShell = lazy(() => import('./layout/app-shell'));

export function AppRouter() {
  const [location] = useLocation();
  const search = useSearch();
  const queryClient = useQueryClient();
  const { user, isLoading } = useAuth();

  useEffect(() => {
    if (search.includes('forceLogin=true') && applyForceLogin()) queryClient.clear();
  }, [search, queryClient]);

  const route = resolveRoute(location, user !== null);

  useEffect(() => {
    document.title = `${route.title} · Outlay`;
  }, [route.title]);

  // The screen's chunk is fetched beside the frame's rather than after the frame has rendered:
  // one round trip less before a screen shows on a slow network. RoutePage's lazy() gets the
  // same module from the browser's module map.
  useEffect(() => {
    if (!isLoading && route.frame === 'shell') void route.load().catch(() => undefined);
  }, [route, isLoading]);

  // docs/product.md §6.1: a spinner shows while authentication loads.
  if (isLoading) return <LoadingScreen label="Checking your session" />;

  const page = <RoutePage route={route} user={user} />;
  if (route.frame === 'bare') return page;
  return (
    <Suspense fallback={<LoadingScreen />}>
      <AppShell>{page}</AppShell>
    </Suspense>
  );
}
