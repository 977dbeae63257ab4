import { useSearchParams } from 'wouter';
import { PageHeader } from '@/components/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/lib/current-user';
import { usePayrollOrganizations } from '../api/payroll-organizations';
import { EmployeesSection } from '../components/employees-section';
import { RunsSection } from '../components/runs-section';

/** /payroll: monthly runs per organization (prepare, approve, pay) and the employees on them (docs/product.md §3.7). */
export default function PayrollPage() {
  const { user } = useAuth();
  const canManage = (user?.permissions ?? []).includes('payroll.manage');
  // Approvers without payroll.manage see the runs only; the organizations come with the runs' filter.
  const organizations = usePayrollOrganizations(canManage);
  const orgs = organizations.data?.items ?? [];
  const [params, setParams] = useSearchParams();
  const tab = canManage && params.get('tab') === 'employees' ? 'employees' : 'runs';
  return (
    <div>
      <PageHeader
        title="Payroll Management"
        description="Monthly payroll per organization: draft, submitted, approved (by someone other than who submitted it), paid. Bank details are stored encrypted."
      />
      <Tabs
        value={tab}
        onValueChange={(value) =>
          setParams((prev) => {
            const next = new URLSearchParams(prev);
            if (value === 'runs') next.delete('tab');
            else next.set('tab', value);
            return next;
          })
        }
      >
        <TabsList aria-label="Payroll sections" className="w-full sm:w-auto">
          <TabsTrigger value="runs">Runs</TabsTrigger>
          {canManage && <TabsTrigger value="employees">Employees</TabsTrigger>}
        </TabsList>
        <TabsContent value="runs">
          <RunsSection organizations={orgs} canManage={canManage} />
        </TabsContent>
        {canManage && (
          <TabsContent value="employees">
            <EmployeesSection organizations={orgs} />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}
