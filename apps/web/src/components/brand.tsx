import { cn } from '@/lib/utils';

/** The Outlay mark: a ledger tick inside a rounded square, drawn inline so no asset request is needed. */
export function BrandMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" fill="#1d4ed8" />
      <path d="M9 11h14M9 16h8M9 21h5" stroke="#bfdbfe" strokeWidth="2.2" strokeLinecap="round" />
      <path
        d="m17.5 21 2.5 2.5 5-6"
        fill="none"
        stroke="#ffffff"
        strokeWidth="2.4"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export function Brand({ className, inverted = false }: { className?: string; inverted?: boolean }) {
  return (
    <span className={cn('inline-flex items-center gap-2 font-semibold tracking-tight', className)}>
      <BrandMark />
      <span className={cn('text-lg', inverted ? 'text-white' : 'text-foreground')}>Outlay</span>
    </span>
  );
}
