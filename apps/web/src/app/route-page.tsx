import { Lock } from 'lucide-react';
import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import { Link } from 'wouter';
import type { CurrentUser } from '@outlay/contracts/auth';
import { ErrorBoundary } from '@/components/error-boundary';
import { LoadingScreen } from '@/components/loading-screen';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { mayOpen } from '@/lib/route-catalogue';
import type { AppRoute } from './routes';

const lazyPages = new Map<AppRoute['load'], LazyExoticComponent<ComponentType>>();

/** One lazy component per import, so a screen's chunk loads once and routes sharing it share it. */
function pageFor(route: AppRoute) {
  let page = lazyPages.get(route.load);
  if (!page) {
    page = lazy(route.load);
    lazyPages.set(route.load, page);
  }
  return page;
}

export function RoutePage({ route, user }: { route: AppRoute; user: CurrentUser | null }) {
  const Page = pageFor(route);
  const allowed = !user || mayOpen(route, user.permissions);
  return (
    <ErrorBoundary resetKey={route.path}>
      <Suspense fallback={<LoadingScreen />}>
        {/* eslint-disable-next-line react-hooks/static-components -- pageFor keeps one lazy component per route: the same one on every render */}
        {allowed ? <Page /> : <AccessRestricted title={route.title} />}
      </Suspense>
    </ErrorBoundary>
  );
}

/** The server would refuse this screen's calls, so the client says so instead of failing on them. */
function AccessRestricted({ title }: { title: string }) {
  return (
    <Card className="mx-auto mt-6 max-w-lg" data-testid="access-restricted">
      <CardContent className="flex flex-col items-start gap-3 pt-6">
        <span className="rounded-lg bg-slate-100 p-2 text-slate-700">
          <Lock className="size-5" aria-hidden="true" />
        </span>
        <h1 className="text-xl font-semibold">{title}</h1>
        <p className="text-sm text-muted-foreground">
          Your role does not include access to this screen. Ask an administrator if you need it.
        </p>
        <Button asChild variant="outline">
          <Link href="/">Back to Dashboard</Link>
        </Button>
      </CardContent>
    </Card>
  );
}
