import { CheckCircle2 } from 'lucide-react';
import { Link } from 'wouter';
import { LoadingScreen } from '@/components/loading-screen';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { fullName } from '@/lib/format';
import { useAuth } from '@/lib/current-user';
import { AuthLayout } from '@/components/auth-layout';

/** /auth-success: the landing point after a bridged sign-in. */
export default function AuthSuccessPage() {
  const { user, isLoading } = useAuth();
  if (isLoading) return <LoadingScreen />;
  return (
    <AuthLayout>
      <Card className="shadow-md">
        <CardContent className="flex flex-col items-center gap-4 py-10 text-center">
          {user ? (
            <>
              <CheckCircle2 className="size-12 text-emerald-600" aria-hidden="true" />
              <h1 className="text-2xl font-semibold tracking-tight">You're signed in</h1>
              <p className="text-sm text-muted-foreground">Welcome, {fullName(user) || user.username}.</p>
              <Button asChild size="lg">
                <Link href="/">Continue to Dashboard</Link>
              </Button>
            </>
          ) : (
            <>
              <h1 className="text-2xl font-semibold tracking-tight">Not signed in</h1>
              <p className="text-sm text-muted-foreground">Your session could not be confirmed. Please sign in.</p>
              <Button asChild size="lg">
                <Link href="/auth">Go to Sign In</Link>
              </Button>
            </>
          )}
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
