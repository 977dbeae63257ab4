import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/current-user';
import { findRoute, mayOpen } from '@/lib/route-catalogue';

/**
 * A button linking a screen to a related one, named by the route's title and shown only to
 * those the route's permission admits (a link to a refused screen would be a dead end).
 */
export function RouteLink({
  path,
  icon,
  variant = 'outline',
}: {
  path: string;
  icon?: ReactNode;
  variant?: 'outline' | 'default' | 'ghost';
}) {
  const { user } = useAuth();
  const route = findRoute(path);
  if (!user || !route || !mayOpen(route, user.permissions)) return null;
  return (
    <Button asChild variant={variant}>
      <Link href={route.path}>
        {icon}
        {route.title}
      </Link>
    </Button>
  );
}
