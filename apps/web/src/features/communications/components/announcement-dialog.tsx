import { useEffect } from 'react';
import {
  ANNOUNCEMENT_AUDIENCE_LABELS,
  ANNOUNCEMENT_AUDIENCE_VALUES,
  createAnnouncementInput,
  type AnnouncementAudiences,
} from '@outlay/contracts/communications';
import { FormDialog, FormFieldSelect, FormFieldText, FormFieldTextarea, useZodForm } from '@/components/form';
import { QueryState } from '@/components/query-state';
import { Dialog, DialogContent, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { useToast } from '@/components/ui/use-toast';
import { useAnnouncementAudiences } from '../api/announcement-audiences';
import { useCreateAnnouncement } from '../api/create-announcement';

function AnnouncementForm({
  audiences,
  open,
  onOpenChange,
}: {
  audiences: AnnouncementAudiences;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const create = useCreateAnnouncement();
  const { toast } = useToast();
  const allowed = ANNOUNCEMENT_AUDIENCE_VALUES.filter((a) =>
    a === 'everyone'
      ? audiences.everyone
      : a === 'organization'
        ? audiences.organizations.length > 0
        : audiences.departments.length > 0,
  );
  const form = useZodForm(createAnnouncementInput, { title: '', body: '', audience: allowed[0] ?? 'department' });
  const audience = form.watch('audience');
  // A department or organization only when the audience asks for one.
  useEffect(() => {
    if (audience !== 'organization') form.setValue('organizationId', undefined);
    if (audience !== 'department') form.setValue('departmentId', undefined);
  }, [audience, form]);
  const departmentOptions = audiences.departments.map((d) => ({
    value: d.id,
    label: audiences.organizations.length > 1 || audiences.everyone ? `${d.organizationName} · ${d.name}` : d.name,
  }));
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title="New announcement"
      description="Everyone it addresses sees it under Announcements, and their unread count goes up at once."
      form={form}
      submitLabel="Publish"
      pendingLabel="Publishing…"
      onSubmit={async (values) => {
        const saved = await create.mutateAsync(values);
        toast({ title: 'Announcement published', description: saved.title });
        onOpenChange(false);
      }}
    >
      <FormFieldText name="title" label="Title" required maxLength={160} />
      <FormFieldSelect
        name="audience"
        label="To"
        required
        options={allowed.map((a) => ({ value: a, label: ANNOUNCEMENT_AUDIENCE_LABELS[a] }))}
      />
      {audience === 'organization' && (
        <FormFieldSelect
          name="organizationId"
          label="Organization"
          required
          options={audiences.organizations.map((o) => ({ value: o.id, label: o.name }))}
        />
      )}
      {audience === 'department' && (
        <FormFieldSelect name="departmentId" label="Department" required options={departmentOptions} />
      )}
      <FormFieldTextarea name="body" label="Message" required rows={6} maxLength={8000} />
    </FormDialog>
  );
}

/** Publishing an announcement: the audiences the author may address come from the server. */
export function AnnouncementDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const audiences = useAnnouncementAudiences(open);
  if (audiences.data) return <AnnouncementForm audiences={audiences.data} open={open} onOpenChange={onOpenChange} />;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>New announcement</DialogTitle>
        </DialogHeader>
        <QueryState
          query={audiences}
          loadingLabel="Loading whom you can address…"
          errorMessage="Could not load whom you can address."
        >
          {() => null}
        </QueryState>
      </DialogContent>
    </Dialog>
  );
}
