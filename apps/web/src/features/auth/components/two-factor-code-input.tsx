import type { ComponentProps } from 'react';
import { TOTP_DIGITS } from '@outlay/contracts/constants';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { sanitizeTotpInput } from '../utils/two-factor-code';

type Props = Omit<ComponentProps<'input'>, 'onChange' | 'value'> & {
  value: string;
  onValueChange: (value: string) => void;
};

/** Six digits only: anything else is stripped as it is typed or pasted (docs/product.md §6.4). */
export function TwoFactorCodeInput({ value, onValueChange, className, ...props }: Props) {
  return (
    <Input
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]*"
      maxLength={TOTP_DIGITS}
      placeholder="000000"
      value={value}
      onChange={(e) => onValueChange(sanitizeTotpInput(e.target.value))}
      className={cn('h-12 text-center font-mono text-2xl tracking-[0.5em]', className)}
      {...props}
    />
  );
}
