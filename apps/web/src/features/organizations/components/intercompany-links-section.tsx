import { Link2 } from 'lucide-react';
import { useState } from 'react';
import { z } from 'zod';
import { linkIntercompanyInput, type IntercompanyLink } from '@outlay/contracts/organizations';
import {
  DataTable,
  DataTableFilterSelect,
  DataTableRowActions,
  ListCard,
  useListQuery,
  type DataTableColumn,
} from '@/components/data-table';
import { ConfirmDialog, FormDialog, FormFieldSelect, useZodForm } from '@/components/form';
import { useHolds } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { toast } from '@/components/ui/use-toast';
import { useIntercompanyCandidates } from '../api/intercompany-candidates';
import { INTERCOMPANY_LINKS_URL } from '../api/keys';
import { useLinkIntercompany } from '../api/link-intercompany';
import { useOrganizationOptions } from '../api/organization-options';
import { useUnlinkIntercompany } from '../api/unlink-intercompany';

const columns: DataTableColumn<IntercompanyLink>[] = [
  {
    id: 'vendorName',
    header: 'Vendor',
    sortable: true,
    hideable: false,
    cell: (l) => <span className="font-medium">{l.vendorName}</span>,
  },
  { id: 'vendorTaxId', header: 'Tax id' },
  { id: 'organizationName', header: 'Bought by', sortable: true },
  { id: 'intercompanyOrganizationName', header: 'Group company', sortable: true },
];

/** The link form: which company buys, which of its vendors, and which group company that vendor is. */
const linkForm = linkIntercompanyInput.extend({
  organizationId: z.uuid('Choose the buying organization'),
  vendorId: z.uuid('Choose a vendor'),
});

function LinkDialog({ onOpenChange }: { onOpenChange: (open: boolean) => void }) {
  const form = useZodForm(linkForm, { organizationId: '', vendorId: '', intercompanyOrganizationId: '' });
  const organizations = useOrganizationOptions();
  const buyer = form.watch('organizationId');
  const candidates = useIntercompanyCandidates(buyer || null);
  const link = useLinkIntercompany();
  const orgOptions = (organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }));
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title="Link a vendor to a group company"
      description="Purchases from this vendor then count as intercompany."
      form={form}
      submitLabel="Link"
      onSubmit={async ({ vendorId, intercompanyOrganizationId }) => {
        const created = await link.mutateAsync({ vendorId, input: { intercompanyOrganizationId } });
        toast({
          title: 'Vendor linked',
          description: `${created.vendorName} is ${created.intercompanyOrganizationName}`,
          variant: 'success',
        });
      }}
    >
      <FormFieldSelect name="organizationId" label="Buying organization" required options={orgOptions} />
      <FormFieldSelect
        name="vendorId"
        label="Vendor"
        required
        disabled={!buyer || candidates.isPending}
        placeholder={
          !buyer
            ? 'Choose the buying organization first'
            : candidates.data?.length === 0
              ? 'No unlinked vendors'
              : 'Select…'
        }
        options={(candidates.data ?? []).map((c) => ({ value: c.vendorId, label: c.vendorName }))}
      />
      <FormFieldSelect
        name="intercompanyOrganizationId"
        label="Group company it is"
        required
        options={orgOptions.filter((o) => o.value !== buyer)}
      />
    </FormDialog>
  );
}

export function IntercompanyLinksSection() {
  const query = useListQuery<IntercompanyLink>({
    url: INTERCOMPANY_LINKS_URL,
    filters: ['organizationId'],
    defaultSort: 'organizationName',
    urlPrefix: 'ic.',
  });
  const organizations = useOrganizationOptions();
  const unlink = useUnlinkIntercompany();
  const canManage = useHolds('org.manage');
  const [linking, setLinking] = useState(false);
  const [removing, setRemoving] = useState<IntercompanyLink | null>(null);
  return (
    <section aria-labelledby="intercompany-heading" className="flex flex-col gap-3">
      <div>
        <h2 id="intercompany-heading" className="text-lg font-semibold">
          Intercompany links
        </h2>
        <p className="text-sm text-muted-foreground">
          Vendors that are other companies of the group, shown for both sides.
        </p>
      </div>
      <DataTable
        label="Intercompany links"
        entityName="intercompany links"
        columns={columns}
        query={query}
        getRowId={(l) => l.vendorId}
        searchPlaceholder="Search vendor or company…"
        toolbar={
          <DataTableFilterSelect
            query={query}
            name="organizationId"
            label="Organization"
            allLabel="All organizations"
            className="sm:w-52"
            options={(organizations.data ?? []).map((o) => ({ value: o.id, label: o.name }))}
          />
        }
        actions={
          canManage && (
            <Button onClick={() => setLinking(true)}>
              <Link2 aria-hidden="true" /> Link vendor
            </Button>
          )
        }
        rowActions={
          canManage
            ? (l) => (
                <DataTableRowActions
                  label={`Actions for ${l.vendorName}`}
                  actions={[{ label: 'Unlink', destructive: true, onSelect: () => setRemoving(l) }]}
                />
              )
            : undefined
        }
        renderCard={(l) => (
          <ListCard
            title={l.vendorName}
            subtitle={`Bought by ${l.organizationName} · is ${l.intercompanyOrganizationName}`}
            meta={l.vendorTaxId ? `Tax id ${l.vendorTaxId}` : undefined}
            actions={
              canManage ? (
                <DataTableRowActions
                  label={`Actions for ${l.vendorName}`}
                  actions={[{ label: 'Unlink', destructive: true, onSelect: () => setRemoving(l) }]}
                />
              ) : undefined
            }
          />
        )}
      />
      {linking && <LinkDialog onOpenChange={setLinking} />}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Unlink ${removing?.vendorName ?? 'vendor'}?`}
        description={
          removing
            ? `It stays a vendor of ${removing.organizationName} but no longer counts as ${removing.intercompanyOrganizationName}.`
            : undefined
        }
        confirmLabel="Unlink"
        onConfirm={async () => {
          if (!removing) return;
          await unlink.mutateAsync(removing.vendorId);
          toast({ title: 'Link removed', description: removing.vendorName, variant: 'success' });
        }}
      />
    </section>
  );
}
