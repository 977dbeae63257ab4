import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function AuthSecurityPage() {
  return (
    <ScaffoldScreen
      title="Auth Security"
      summary="Sign-in activity and account protection."
      capabilities={[
        "Successful and failed sign-ins with IP and device",
        "Locked accounts with unlock",
        "2FA adoption per role",
      ]}
    />
  );
}
