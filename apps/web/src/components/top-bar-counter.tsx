import type { LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { cn } from '@/lib/utils';

const TONES = { red: 'bg-red-600', blue: 'bg-blue-600' } as const;

/**
 * A top-bar icon link with an unread count on it. The link is named "<name>, <count> unread",
 * with the count as the badge shows it, so that the number a person sees is the number in the
 * name a screen reader reads and speech control answers to (WCAG 2.5.3); `detail` follows in
 * parentheses. The badge itself is hidden from screen readers: the name says it.
 */
export function TopBarCounter({
  href,
  name,
  detail,
  icon: Icon,
  count,
  tone,
  testId,
  countTestId,
  className,
}: {
  href: string;
  name: string;
  detail?: string;
  icon: LucideIcon;
  count: number;
  tone: keyof typeof TONES;
  testId: string;
  countTestId: string;
  className?: string;
}) {
  const shown = count > 99 ? '99+' : String(count);
  return (
    <Link
      href={href}
      aria-label={`${name}, ${shown} unread${detail ? ` (${detail})` : ''}`}
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
          className={cn(
            'absolute -right-0.5 -top-0.5 inline-flex min-w-5 items-center justify-center rounded-full px-1 text-[11px] font-semibold leading-5 text-white',
            TONES[tone],
          )}
        >
          {shown}
        </span>
      )}
    </Link>
  );
}
