import type { LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';

const TONES = { red: 'bg-red-600', blue: 'bg-blue-600' } as const;

/** A top-bar icon link with an unread count on it (hidden from screen readers: the label says it). */
export function TopBarCounter({
  href,
  label,
  icon: Icon,
  count,
  tone,
  testId,
  countTestId,
  className,
}: {
  href: string;
  label: string;
  icon: LucideIcon;
  count: number;
  tone: keyof typeof TONES;
  testId: string;
  countTestId: string;
  className?: string;
}) {
  return (
    <Link
      href={href}
      aria-label={label}
      data-testid={testId}
      className={cn(
        'relative inline-flex size-10 items-center justify-center rounded-md text-slate-700 transition-colors hover:bg-slate-100 hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring',
        className,
      )}
    >
      <Icon className="size-5" aria-hidden="true" />
      {count > 0 && (
        <span
          aria-hidden="true"
          data-testid={countTestId}
          className={cn('absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full px-1 text-[11px] font-semibold leading-5 text-white', TONES[tone])}
        >
          {count > 99 ? '99+' : String(count)}
        </span>
      )}
    </Link>
  );
}
