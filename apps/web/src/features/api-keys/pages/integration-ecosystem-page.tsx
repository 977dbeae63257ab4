import { PageHeader } from '@/components/page-header';
import { ApiKeysCard } from '../components/api-keys-card';
import { ApiReferenceCard } from '../components/api-reference-card';

export default function IntegrationEcosystemPage() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="API Integrations" description="Keys for programs that call the Outlay API, its reference, and the accounting export." className="mb-0" />
      <ApiKeysCard />
      <ApiReferenceCard />
    </div>
  );
}
