import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { PolicyRule } from '@outlay/contracts/policies';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { SiblingScreens } from '@/components/sibling-screens';
import { Button } from '@/components/ui/button';
import { usePolicyOptions } from '../api/policies';
import { RuleDialog } from '../components/rule-dialog';
import { RulesTable } from '../components/rules-table';

/** /policy-management: the expense rules and what happens when a request breaks them (docs/product.md §3.6). */
export default function PolicyManagementPage() {
  const options = usePolicyOptions();
  // The Settings menu's roles open the screen; only policies.manage changes a rule.
  const canManage = useHolds('policies.manage');
  const [editing, setEditing] = useState<PolicyRule | 'new' | null>(null);
  return (
    <div>
      <PageHeader
        title="Policy Management"
        description="Expense rules checked on the request form as people type and again at submission: warn, ask for a justification, or block."
      />
      {!canManage && <ReadOnlyNote />}
      <SiblingScreens />
      <RulesTable
        enhanced={false}
        onEdit={setEditing}
        actions={
          canManage && (
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" />
              New rule
            </Button>
          )
        }
      />
      {editing && (
        <RuleDialog
          key={editing === 'new' ? 'new' : editing.id}
          open
          onOpenChange={(open) => !open && setEditing(null)}
          rule={editing === 'new' ? null : editing}
          options={options.data}
        />
      )}
    </div>
  );
}
