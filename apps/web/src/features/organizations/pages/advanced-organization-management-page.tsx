import { useState } from 'react';
import type { OrganizationTreeNode } from '@outlay/contracts/organizations';
import { PageHeader } from '@/components/page-header';
import { QueryState } from '@/components/query-state';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useOrganizationOptions } from '../api/organization-options';
import { useOrganizationTree } from '../api/organization-tree';
import { FxRatesSection } from '../components/fx-rates-section';
import { IntercompanyLinksSection } from '../components/intercompany-links-section';
import { MoveOrganizationDialog } from '../components/move-organization-dialog';
import { OrganizationSettingsCard } from '../components/organization-settings-card';
import { OrganizationTreeView } from '../components/organization-tree-view';

function HierarchyCard() {
  const tree = useOrganizationTree();
  const organizations = useOrganizationOptions();
  const canManage = useHolds('org.manage');
  const [moving, setMoving] = useState<OrganizationTreeNode | null>(null);
  const parentOf = (id: string) => organizations.data?.find((o) => o.id === id)?.parentId ?? null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Hierarchy</CardTitle>
        <CardDescription>
          The group and its companies.{canManage && ' Move a subsidiary to change who it reports to.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={tree}
          loadingLabel="Loading the hierarchy"
          errorMessage="The hierarchy could not be loaded."
          className="min-h-24"
        >
          {(data) => <OrganizationTreeView nodes={data.roots} onMove={canManage ? setMoving : undefined} />}
        </QueryState>
      </CardContent>
      {moving && tree.data && (
        <MoveOrganizationDialog
          key={moving.id}
          node={moving}
          roots={tree.data.roots}
          currentParentId={parentOf(moving.id)}
          onOpenChange={(open) => !open && setMoving(null)}
        />
      )}
    </Card>
  );
}

export default function AdvancedOrganizationManagementPage() {
  const [tab, setTab] = useState('hierarchy');
  // The Settings menu's roles open the screen; only org.manage moves, sets, links or adds anything on it.
  const canManage = useHolds('org.manage');
  return (
    <div>
      <PageHeader
        title="Advanced Organization Management"
        description="The group hierarchy, per-organization settings, intercompany links and FX rates."
      />
      {!canManage && <ReadOnlyNote />}
      <Tabs value={tab} onValueChange={setTab} className="flex flex-col gap-4">
        <TabsList className="grid h-auto w-full grid-cols-2 sm:inline-flex sm:w-fit">
          <TabsTrigger value="hierarchy">Hierarchy</TabsTrigger>
          <TabsTrigger value="settings">Settings</TabsTrigger>
          <TabsTrigger value="intercompany">Intercompany</TabsTrigger>
          <TabsTrigger value="fx">FX rates</TabsTrigger>
        </TabsList>
        <TabsContent value="hierarchy">
          <HierarchyCard />
        </TabsContent>
        <TabsContent value="settings">
          <OrganizationSettingsCard />
        </TabsContent>
        <TabsContent value="intercompany">
          <IntercompanyLinksSection />
        </TabsContent>
        <TabsContent value="fx">
          <FxRatesSection />
        </TabsContent>
      </Tabs>
    </div>
  );
}
