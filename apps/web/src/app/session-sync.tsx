import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { navigate } from 'wouter/use-browser-location';
import { configureApiClient } from '@/lib/api-client';
import { hasValidSession, subscribeSession } from '@/lib/auth-storage';
import { installUnhandledRejectionGuard } from '@/lib/session-guards';
import { CURRENT_USER_KEY, needsPasswordChange, useAuth } from '@/lib/current-user';

const ForcedPasswordDialog = lazy(() =>
  import('@/features/auth/components/forced-password-dialog').then((m) => ({ default: m.ForcedPasswordDialog })),
);

/**
 * Keeps the cache in step with the stored session: a session that appears or disappears
 * (this tab, another tab, a failed refresh) resets the user; a lost one drops cached data.
 */
export function SessionSync() {
  const queryClient = useQueryClient();

  useEffect(() => {
    const endSession = () => {
      queryClient.clear();
      navigate('/auth');
    };
    configureApiClient({ onSessionEnded: endSession });
    const removeGuard = installUnhandledRejectionGuard(endSession);
    let present = hasValidSession();
    const unsubscribe = subscribeSession(() => {
      const now = hasValidSession();
      if (now === present) return;
      present = now;
      if (!now) queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== CURRENT_USER_KEY[0] });
      void queryClient.resetQueries({ queryKey: CURRENT_USER_KEY });
    });
    return () => {
      removeGuard();
      unsubscribe();
    };
  }, [queryClient]);

  return <ForcedPasswordGate />;
}

/** Loads the blocking dialog only for users who need it, and keeps it mounted once shown. */
function ForcedPasswordGate() {
  const { user } = useAuth();
  const [shown, setShown] = useState(false);
  const needed = user !== null && needsPasswordChange(user);
  // Latched during render: once needed, the dialog stays mounted even after the flag clears.
  if (needed && !shown) setShown(true);
  if (!shown && !needed) return null;
  return (
    <Suspense fallback={null}>
      <ForcedPasswordDialog />
    </Suspense>
  );
}
