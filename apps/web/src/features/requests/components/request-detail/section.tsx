import { useId, type ReactNode } from 'react';
import { cn } from '@/lib/utils';

export function Section({
  title,
  children,
  className,
  count,
}: {
  title: string;
  children: ReactNode;
  className?: string;
  count?: number;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn('flex flex-col gap-3', className)}>
      <h3 id={id} className="text-sm font-semibold uppercase tracking-wide text-slate-600">
        {title}
        {count !== undefined && <span className="ml-1.5 font-normal normal-case text-muted-foreground">({count})</span>}
      </h3>
      {children}
    </section>
  );
}
