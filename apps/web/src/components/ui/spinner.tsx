import { cn } from '@/lib/utils';

export function Spinner({
  className,
  label = 'Loading',
  size = 'md',
}: {
  className?: string;
  label?: string;
  size?: 'sm' | 'md';
}) {
  return (
    <span role="status" aria-live="polite" className={cn('inline-flex items-center', className)}>
      <span
        aria-hidden="true"
        className={cn(
          'animate-spin rounded-full border-2 border-slate-300 border-t-primary',
          size === 'sm' ? 'size-4' : 'size-6',
        )}
      />
      <span className="sr-only">{label}</span>
    </span>
  );
}
