import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function UserSessionsPage() {
  return (
    <ScaffoldScreen
      title="User Sessions"
      summary="Every active device session in the group."
      capabilities={[
        "User, device, browser and IP",
        "Created and last seen",
        "Revoke one session or all of a user's",
      ]}
    />
  );
}
