import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function CommunicationsPage() {
  return (
    <ScaffoldScreen
      title="Communications"
      summary="Announcements and direct conversations."
      capabilities={[
        "Announcements to everyone, an organization or a department",
        "Direct conversations between users",
        "Unread counts and live delivery",
      ]}
    />
  );
}
