import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function TutorialsPage() {
  return (
    <ScaffoldScreen
      title="Tutorials"
      summary="How-to articles shipped with the app."
      capabilities={[
        "Searchable articles",
        "Step-by-step guides for each area",
      ]}
    />
  );
}
