import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function IntegrationEcosystemPage() {
  return (
    <ScaffoldScreen
      title="API Integrations"
      summary="API keys, webhooks and accounting exports."
      capabilities={[
        "Scoped API keys, stored hashed, shown once, revocable",
        "Signed outgoing webhooks with retries and a delivery log",
        "Accounting journal export (CSV) and the OpenAPI documentation",
      ]}
    />
  );
}
