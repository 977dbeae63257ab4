import type { ReactNode } from 'react';
import { TooltipProvider } from '@/components/ui/tooltip';
import { useAuth } from '@/lib/current-user';
import { MobileNav } from './mobile-nav';
import { TopBar } from './top-bar';

/** The signed-in frame. Navigation is hidden while no user is loaded (docs/product.md §6.1). */
export default function AppShell({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  return (
    <TooltipProvider>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main-content"
          className="sr-only z-50 rounded-md bg-primary px-3 py-2 text-primary-foreground focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
        >
          Skip to content
        </a>
        {user && <TopBar user={user} />}
        <main
          id="main-content"
          tabIndex={-1}
          className={user ? 'flex-1 px-4 pb-24 pt-6 sm:px-6 lg:pb-10 lg:pt-8' : 'flex-1 px-4 py-6 sm:px-6'}
        >
          {children}
        </main>
        {user && <MobileNav user={user} />}
      </div>
    </TooltipProvider>
  );
}
