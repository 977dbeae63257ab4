import { moveOrganizationInput, type OrganizationTreeNode } from '@outlay/contracts/organizations';
import { FormDialog, FormFieldSelect, useZodForm } from '@/components/form';
import { toast } from '@/components/ui/use-toast';
import { useMoveOrganization } from '../api/move-organization';
import { flatten } from './organization-tree-view';

interface Props {
  node: OrganizationTreeNode;
  roots: OrganizationTreeNode[];
  currentParentId: string | null;
  onOpenChange: (open: boolean) => void;
}

/** Move a subsidiary under another company; the company itself and its own subsidiaries are not offered. */
export function MoveOrganizationDialog({ node, roots, currentParentId, onOpenChange }: Props) {
  const form = useZodForm(moveOrganizationInput, { parentId: '' });
  const move = useMoveOrganization();
  const excluded = new Set(flatten([node]).map((n) => n.id));
  const options = flatten(roots)
    .filter((n) => !excluded.has(n.id) && n.id !== currentParentId)
    .map((n) => ({ value: n.id, label: `${n.name} (${n.code})` }));
  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={`Move ${node.name}`}
      description="Choose its new parent company. Its own subsidiaries move with it."
      form={form}
      submitLabel="Move"
      onSubmit={async (values) => {
        const moved = await move.mutateAsync({ id: node.id, input: values });
        toast({
          title: 'Company moved',
          description: `${moved.name} is now under ${moved.parentName ?? 'the group'}`,
          variant: 'success',
        });
      }}
    >
      <FormFieldSelect name="parentId" label="New parent" required options={options} />
    </FormDialog>
  );
}
