import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function SmartFormPage() {
  return (
    <ScaffoldScreen
      title="Smart Request Form"
      summary="A request form that suggests category, vendor and department as you describe the spend."
      capabilities={[
        "Suggestions learned from your organization's history",
        "Live policy warnings while you type",
        "Budget impact shown before you submit",
      ]}
    />
  );
}
