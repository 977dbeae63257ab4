import { routeAt, type AppRoute } from './routes';

function mustFind(path: string): AppRoute {
  const route = routeAt(path);
  if (!route) throw new Error(`Route ${path} is missing from the catalogue`);
  return route;
}

export const DASHBOARD_ROUTE = mustFind('/');
export const SIGN_IN_ROUTE = mustFind('/auth');

function normalize(path: string): string {
  const clean = path.split(/[?#]/)[0] ?? '/';
  return clean.length > 1 ? clean.replace(/\/+$/, '') : clean;
}

/**
 * docs/product.md §6.1: a path the visitor may open renders its screen; anything else (unknown paths,
 * signed-in screens while signed out, /register while signed in) falls back to the
 * dashboard when signed in, otherwise to the sign-in screen.
 */
export function resolveRoute(path: string, signedIn: boolean): AppRoute {
  const route = routeAt(normalize(path));
  if (route) {
    if (route.access === 'always') return route;
    if (route.access === 'signed-in' && signedIn) return route;
    if (route.access === 'public-only' && !signedIn) return route;
  }
  return signedIn ? DASHBOARD_ROUTE : SIGN_IN_ROUTE;
}
