import { Check, Minus } from 'lucide-react';
import { useEffect, useRef, type ComponentProps } from 'react';
import { cn } from '@/lib/utils';

export interface CheckboxProps extends Omit<ComponentProps<'input'>, 'type' | 'onChange' | 'checked'> {
  checked?: boolean;
  /** The "some but not all" state, e.g. a select-all box when part of the page is selected. */
  indeterminate?: boolean;
  onCheckedChange?: (checked: boolean) => void;
  onChange?: ComponentProps<'input'>['onChange'];
}

/**
 * An accessible checkbox without Radix: a real <input type="checkbox"> (so labels, forms,
 * keyboard and screen readers work natively) drawn over by a styled box.
 */
export function Checkbox({
  className,
  indeterminate = false,
  onCheckedChange,
  onChange,
  checked,
  ref,
  ...props
}: CheckboxProps) {
  const inner = useRef<HTMLInputElement | null>(null);
  useEffect(() => {
    if (inner.current) inner.current.indeterminate = indeterminate;
  }, [indeterminate]);
  return (
    <span className={cn('relative inline-flex size-4 shrink-0 items-center justify-center align-middle', className)}>
      <input
        type="checkbox"
        ref={(node) => {
          inner.current = node;
          if (typeof ref === 'function') ref(node);
          else if (ref) ref.current = node;
        }}
        checked={checked}
        aria-checked={indeterminate ? 'mixed' : undefined}
        onChange={(event) => {
          onChange?.(event);
          onCheckedChange?.(event.target.checked);
        }}
        className="peer absolute inset-0 size-4 cursor-pointer appearance-none rounded-[4px] border border-input bg-card shadow-xs checked:border-primary checked:bg-primary indeterminate:border-primary indeterminate:bg-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:cursor-not-allowed disabled:opacity-50 aria-[invalid=true]:border-destructive"
        {...props}
      />
      <Check
        aria-hidden="true"
        className="pointer-events-none relative hidden size-3 text-primary-foreground peer-checked:block peer-indeterminate:hidden"
        strokeWidth={3}
      />
      <Minus
        aria-hidden="true"
        className="pointer-events-none relative hidden size-3 text-primary-foreground peer-indeterminate:block"
        strokeWidth={3}
      />
    </span>
  );
}
