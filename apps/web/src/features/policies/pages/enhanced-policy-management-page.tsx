import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PolicyList, PolicyRule } from '@outlay/contracts/policies';
import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { SiblingScreens } from '@/components/sibling-screens';
import { Button } from '@/components/ui/button';
import { apiJson } from '@/lib/api-client';
import { POLICIES_URL, usePolicyOptions } from '../api/policies';
import { RuleDialog } from '../components/rule-dialog';
import { RulesTable } from '../components/rules-table';
import { SimulationPanel } from '../components/simulation-panel';
import { VersionsDialog } from '../components/versions-dialog';

/** /enhanced-policy-management: rule builder (AND/OR conditions, priority, dates), versions and simulation. */
export default function EnhancedPolicyManagementPage() {
  const options = usePolicyOptions();
  // The Settings menu's roles see the rules and their versions; building, changing and simulating rules need policies.manage.
  const canManage = useHolds('policies.manage');
  const [editing, setEditing] = useState<PolicyRule | 'new' | null>(null);
  const [history, setHistory] = useState<PolicyRule | null>(null);
  const [simulated, setSimulated] = useState('');
  const all = useQuery({
    queryKey: [POLICIES_URL, { pageSize: 100, sort: 'priority' }],
    queryFn: ({ signal }) =>
      apiJson<PolicyList>('GET', `${POLICIES_URL}?pageSize=100&sort=priority&order=asc`, undefined, { signal }),
  });
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="Enhanced Policy Management"
        description="Build rules with conditions on any request field, set their priority and dates, see their versions and try them against past requests."
        className="mb-0"
      />
      {!canManage && (
        <ReadOnlyNote>
          Read-only for your role: you can see every rule and its versions; an administrator builds, changes and
          simulates them.
        </ReadOnlyNote>
      )}
      <SiblingScreens />
      <RulesTable
        enhanced
        onEdit={setEditing}
        onVersions={setHistory}
        actions={
          canManage && (
            <Button onClick={() => setEditing('new')}>
              <Plus aria-hidden="true" />
              New rule
            </Button>
          )
        }
      />
      {canManage && <SimulationPanel rules={all.data?.items ?? []} ruleId={simulated} onRuleChange={setSimulated} />}
      {editing && (
        <RuleDialog
          key={editing === 'new' ? 'new' : editing.id}
          open
          enhanced
          initialKind="custom"
          onOpenChange={(open) => !open && setEditing(null)}
          rule={editing === 'new' ? null : editing}
          options={options.data}
        />
      )}
      <VersionsDialog rule={history} onClose={() => setHistory(null)} />
    </div>
  );
}
