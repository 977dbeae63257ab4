import { PageHeader } from '@/components/page-header';
import { ApiKeysCard } from '../components/api-keys-card';
import { ApiReferenceCard } from '../components/api-reference-card';
import { WebhooksCard } from '../components/webhooks-card';

export default function IntegrationEcosystemPage() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="API Integrations" description="Keys for programs that call the Outlay API, webhooks that tell them of events, the API reference and the accounting export." className="mb-0" />
      <ApiKeysCard />
      <WebhooksCard />
      <ApiReferenceCard />
    </div>
  );
}
