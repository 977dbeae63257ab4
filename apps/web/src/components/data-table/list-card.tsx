import type { ReactNode } from 'react';
import { cn } from '@/lib/utils';

export interface ListCardProps {
  /** What the row is, in a line or two: a name or a request's title. */
  title: ReactNode;
  /** A small line above the title, e.g. a request's reference. */
  eyebrow?: ReactNode;
  /** A muted line under the title: who, where, which kind. */
  subtitle?: ReactNode;
  /** Top right, e.g. the status badge. */
  badge?: ReactNode;
  /** Bottom left: age, dates, counts. */
  meta?: ReactNode;
  /** Bottom right, e.g. the amount with its currency. */
  amount?: ReactNode;
  /** Opens the row: the whole card becomes the button (its name is `openLabel`). */
  onOpen?: () => void;
  openLabel?: string;
  /** The row's own actions (a <DataTableRowActions/> menu), kept above the card's button. */
  actions?: ReactNode;
  /** Buttons under the card's fields (Approve, Reject), kept above the card's button. */
  footer?: ReactNode;
  className?: string;
  testId?: string;
}

/**
 * A list row on a phone (`DataTable renderCard`): the fields that matter stacked in the width
 * of the screen instead of a table that would scroll sideways.
 */
export function ListCard({
  title,
  eyebrow,
  subtitle,
  badge,
  meta,
  amount,
  onOpen,
  openLabel,
  actions,
  footer,
  className,
  testId,
}: ListCardProps) {
  const heading = (
    <>
      {eyebrow && <span className="block font-mono text-xs text-muted-foreground">{eyebrow}</span>}
      {/* The two lines read as two words ("REQ-0042 Taxi"), not run together, wherever text is taken from them. */}
      {eyebrow && ' '}
      <span className="block break-words font-medium leading-snug">{title}</span>
    </>
  );
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', className)} data-testid={testId ?? 'list-card'}>
      <div className="flex items-start justify-between gap-2">
        {onOpen ? (
          <button
            type="button"
            onClick={onOpen}
            aria-label={openLabel}
            className="min-w-0 text-left outline-none after:absolute after:inset-0 after:rounded-xl after:content-['']"
          >
            {heading}
          </button>
        ) : (
          <div className="min-w-0">{heading}</div>
        )}
        {(badge || actions) && (
          <div className="relative z-10 flex shrink-0 items-center gap-1">
            {badge}
            {actions}
          </div>
        )}
      </div>
      {subtitle && <div className="min-w-0 break-words text-xs text-muted-foreground">{subtitle}</div>}
      {(meta || amount) && (
        <div className="flex items-end justify-between gap-3">
          <div className="min-w-0 text-xs text-muted-foreground">{meta}</div>
          {amount && <div className="shrink-0 text-sm font-medium tabular-nums">{amount}</div>}
        </div>
      )}
      {footer && <div className="relative z-10 flex flex-wrap gap-2 pt-1">{footer}</div>}
    </div>
  );
}
