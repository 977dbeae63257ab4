import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function NotificationSettingsPage() {
  return (
    <ScaffoldScreen
      title="Notification Settings"
      summary="Choose how you hear about each event."
      capabilities={[
        "Per event and per channel (in-app, e-mail) on or off",
        "E-mail digest frequency",
      ]}
    />
  );
}
