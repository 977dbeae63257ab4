import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function SecuritySettingsPage() {
  return (
    <ScaffoldScreen
      title="Security Settings"
      summary="Password policy, sessions, 2FA and lockout settings."
      capabilities={[
        "Password policy and session and idle lifetime",
        "Two-factor required per role",
        "Lockout threshold and authorized e-mail domains",
      ]}
    />
  );
}
