import { PageHeader } from '@/components/page-header';
import { ReadOnlyNote, useHolds } from '@/components/read-only-note';
import { ApiKeysCard } from '../components/api-keys-card';
import { ApiReferenceCard } from '../components/api-reference-card';
import { WebhooksCard } from '../components/webhooks-card';

export default function IntegrationEcosystemPage() {
  // Keys and webhooks are each their maker's own and hold secrets: a settings reader sees the reference only.
  const canManage = useHolds('integrations.manage');
  return (
    <div className="flex flex-col gap-6">
      <PageHeader
        title="API Integrations"
        description="Keys for programs that call the Outlay API, webhooks that tell them of events, the API reference and the accounting export."
        className="mb-0"
      />
      {canManage ? (
        <>
          <ApiKeysCard />
          <WebhooksCard />
        </>
      ) : (
        <ReadOnlyNote>
          Read-only for your role: API keys and webhooks belong to the people who make them, so only the reference is
          shown; an administrator makes them.
        </ReadOnlyNote>
      )}
      <ApiReferenceCard />
    </div>
  );
}
