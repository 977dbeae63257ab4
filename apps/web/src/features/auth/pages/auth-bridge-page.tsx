import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import { USER_FETCH_TIMEOUT_MS } from '@outlay/contracts/constants';
import type { CurrentUser } from '@outlay/contracts/auth';
import { LoadingScreen } from '@/components/loading-screen';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { apiUrl } from '@/lib/api-client';
import { storeSession, storeUser } from '@/lib/auth-storage';
import { CURRENT_USER_KEY } from '@/lib/current-user';
import { AuthLayout } from '@/components/auth-layout';
import { parseBridgeFragment, type BridgeTokens } from '../utils/parse-bridge-fragment';

async function validate(tokens: BridgeTokens): Promise<CurrentUser | null> {
  const res = await fetch(apiUrl('/api/auth/user'), {
    headers: {
      Authorization: `Bearer ${tokens.accessToken}`,
      'Content-Type': 'application/json',
      'X-Device-ID': tokens.deviceId,
    },
    credentials: 'include',
    signal: AbortSignal.timeout(USER_FETCH_TIMEOUT_MS),
  });
  return res.ok ? ((await res.json()) as CurrentUser) : null;
}

/** /auth-bridge: takes a session handed over in the URL fragment, checks it, then stores it. */
export default function AuthBridgePage() {
  const queryClient = useQueryClient();
  // Read once, before the effect below drops the fragment from the address bar.
  const [tokens] = useState(() => parseBridgeFragment(window.location.hash));
  const [failed, setFailed] = useState(!tokens);
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Drop the tokens from the address bar and history before anything else happens.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    if (!tokens) return;
    validate(tokens)
      .then(async (user) => {
        if (!user) return setFailed(true);
        storeSession({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }, tokens.deviceId);
        storeUser(user);
        queryClient.setQueryData(CURRENT_USER_KEY, user);
        navigate('/auth-success', { replace: true });
      })
      .catch(() => setFailed(true));
  }, [queryClient, tokens]);

  return (
    <AuthLayout>
      <Card className="shadow-md">
        {failed ? (
          <>
            <CardHeader className="pb-2">
              <span className="mb-2 inline-flex size-10 items-center justify-center rounded-lg bg-red-100 text-red-700">
                <AlertTriangle className="size-5" aria-hidden="true" />
              </span>
              <h1 className="text-2xl font-semibold tracking-tight">Sign-in link not valid</h1>
              <CardDescription>
                This sign-in link is incomplete, expired or was already used. Sign in with your username and password
                instead.
              </CardDescription>
            </CardHeader>
            <CardContent className="pt-4">
              <Button asChild>
                <Link href="/auth">Go to Sign In</Link>
              </Button>
            </CardContent>
          </>
        ) : (
          <CardContent className="py-10">
            <h1 className="sr-only">Signing you in</h1>
            <LoadingScreen label="Signing you in" />
          </CardContent>
        )}
      </Card>
    </AuthLayout>
  );
}
