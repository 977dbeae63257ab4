import { useMemo, useState } from 'react';
import type { Profile } from '@outlay/contracts/auth';
import { Combobox } from '@/components/combobox';
import { FormField } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { useUpdateProfileMutation } from '../api/profile';

const FOLLOW = '__organization__';

/** Every zone the browser knows (IANA names), UTC first. */
function allZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return ['UTC', ...zones.filter((z) => z !== 'UTC')];
}

/**
 * The zone a person's schedules run in (report e-mails, digests): their own, or their
 * organization's. Saved with the rest of the profile as the server keeps it.
 */
export function TimeZoneCard({ profile }: { profile: Profile }) {
  const update = useUpdateProfileMutation();
  const zones = useMemo(() => allZones(), []);
  const [search, setSearch] = useState('');
  const [choice, setChoice] = useState<string>(profile.timeZone ?? FOLLOW);
  const following = profile.timeZone === null || profile.timeZone === undefined;
  const organizationZone = following ? profile.effectiveTimeZone : undefined;
  const items = useMemo(() => {
    const q = search.trim().toLowerCase().replace(/\s+/g, '_');
    const follow = {
      id: FOLLOW,
      name: organizationZone ? `My organization's (${organizationZone})` : "My organization's",
    };
    return [
      follow,
      ...zones
        .filter((z) => !q || z.toLowerCase().includes(q))
        .slice(0, 50)
        .map((z) => ({ id: z, name: z.replace(/_/g, ' ') })),
    ];
  }, [search, zones, organizationZone]);
  const changed = choice !== (profile.timeZone ?? FOLLOW);

  const save = async () => {
    try {
      const saved = await update.mutateAsync({
        firstName: profile.firstName,
        lastName: profile.lastName,
        email: profile.email,
        phoneNumber: profile.phoneNumber ?? '',
        timeZone: choice === FOLLOW ? null : choice,
      });
      toast({
        variant: 'success',
        title: 'Time zone saved',
        description: `Your schedules run in ${saved.effectiveTimeZone ?? choice}.`,
      });
    } catch (error) {
      toast({
        variant: 'destructive',
        title: 'Error',
        description: messageOf(error, 'The time zone could not be saved'),
      });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>Time zone</CardTitle>
        <CardDescription>
          Scheduled report e-mails and digests arrive at their hour here (06:00 and 07:00), whatever the season. Now:{' '}
          {profile.effectiveTimeZone ?? 'UTC'}.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-end">
        <FormField label="Time zone" className="sm:w-96">
          {(control) => (
            <Combobox
              {...control}
              value={choice}
              valueLabel={choice === FOLLOW ? items[0]!.name : choice.replace(/_/g, ' ')}
              onChange={(item) => setChoice(item?.id ?? FOLLOW)}
              items={items}
              onSearch={setSearch}
              itemLabel={(item) => item.name}
              emptyText={(text) => `No time zone matches “${text}”.`}
              listLabel="Time zones"
              placeholder="Search, e.g. Berlin"
              clearable={false}
            />
          )}
        </FormField>
        <Button type="button" onClick={() => void save()} disabled={!changed || update.isPending}>
          {update.isPending ? 'Saving…' : 'Save time zone'}
        </Button>
      </CardContent>
    </Card>
  );
}
