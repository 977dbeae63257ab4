import { Spinner } from '@/components/ui/spinner';

export function LoadingScreen({ label = 'Loading' }: { label?: string }) {
  return (
    <div className="flex min-h-[50dvh] w-full flex-1 items-center justify-center" data-testid="loading-screen">
      <div className="flex flex-col items-center gap-3 text-sm text-muted-foreground">
        <Spinner className="[&>span:first-child]:size-8" label={label} />
        <span aria-hidden="true">{label}…</span>
      </div>
    </div>
  );
}
