import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { queryClient } from '@/lib/query-client';
import { LanguageProvider } from './language-provider';
import { SessionSync } from './session-sync';

// Nothing toasts before the first screen is up, so the toast UI (and its Radix parts) loads
// beside the screen instead of in front of it; a toast raised meanwhile waits in the store.
const Toaster = lazy(() => import('@/components/ui/toaster').then((m) => ({ default: m.Toaster })));

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <LanguageProvider>
        {children}
        <SessionSync />
        <Suspense fallback={null}>
          <Toaster />
        </Suspense>
      </LanguageProvider>
    </QueryClientProvider>
  );
}
