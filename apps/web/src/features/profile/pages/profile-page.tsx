import { Lock, User } from 'lucide-react';
import { Link } from 'wouter';
import type { Profile } from '@outlay/contracts/auth';
import { LoadingScreen } from '@/components/loading-screen';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/lib/current-user';
import { useProfile } from '../api/profile';
import { ProfileHeaderCard } from '../components/profile-header-card';
import { ProfileInfoForm } from '../components/profile-info-form';
import { ProfilePasswordForm } from '../components/profile-password-form';
import { LanguageCard } from '../components/language-card';
import { TimeZoneCard } from '../components/time-zone-card';
import { TwoFactorCard } from '../components/two-factor-card';

export default function ProfilePage() {
  const { user, isLoading: authLoading } = useAuth();
  const profile = useProfile(user !== null);

  if (authLoading) return <LoadingScreen label="Loading profile" />;
  if (!user) {
    return (
      <Card className="mx-auto mt-10 max-w-md">
        <CardContent className="flex flex-col items-start gap-3 pt-6">
          <h1 className="text-xl font-semibold">User Profile</h1>
          <p className="text-sm text-muted-foreground">Sign in to view and edit your profile.</p>
          <Button asChild>
            <Link href="/auth">Go to Sign In</Link>
          </Button>
        </CardContent>
      </Card>
    );
  }
  return (
    <QueryState
      query={profile}
      loadingLabel="Loading profile"
      errorMessage="Your profile could not be loaded."
      className="min-h-[50vh]"
    >
      {(data) => <ProfileView data={data} />}
    </QueryState>
  );
}

function ProfileView({ data }: { data: Profile }) {
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-6">
      <PageHeader
        className="mb-0"
        title="User Profile"
        description="Manage your personal details and account security."
      />
      <ProfileHeaderCard profile={data} />
      <Tabs defaultValue="profile">
        <TabsList className="w-full sm:w-auto">
          <TabsTrigger value="profile">
            <User aria-hidden="true" /> Profile Information
          </TabsTrigger>
          <TabsTrigger value="security">
            <Lock aria-hidden="true" /> Security
          </TabsTrigger>
        </TabsList>
        <TabsContent value="profile" className="flex flex-col gap-6">
          <ProfileInfoForm profile={data} />
          <TimeZoneCard profile={data} />
          <LanguageCard profile={data} />
        </TabsContent>
        <TabsContent value="security" className="flex flex-col gap-6">
          <ProfilePasswordForm profile={data} />
          <TwoFactorCard profile={data} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
