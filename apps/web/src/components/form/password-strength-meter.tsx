import { Check, Circle } from 'lucide-react';
import { STRENGTH_MAX } from '@outlay/contracts/constants';
import { passwordStrength, type StrengthLabel } from '@outlay/contracts/password-strength';
import { cn } from '@/lib/utils';

const BAR_COLORS: Record<StrengthLabel, string> = {
  'Very Weak': 'bg-red-600',
  Weak: 'bg-orange-500',
  Fair: 'bg-amber-500',
  Good: 'bg-lime-600',
  Strong: 'bg-emerald-600',
};

const LABEL_COLORS: Record<StrengthLabel, string> = {
  'Very Weak': 'text-red-700',
  Weak: 'text-orange-700',
  Fair: 'text-amber-700',
  Good: 'text-lime-800',
  Strong: 'text-emerald-700',
};

/** docs/product.md §6.4: advisory only; bar width is score / 5. */
export function PasswordStrengthMeter({
  password,
  showRequirements = true,
}: {
  password: string;
  showRequirements?: boolean;
}) {
  const { score, label, checks } = passwordStrength(password);
  const requirements = [
    { met: checks.length, text: 'At least 8 characters' },
    { met: checks.uppercase, text: 'One uppercase letter' },
    { met: checks.lowercase, text: 'One lowercase letter' },
    { met: checks.digit, text: 'One number' },
    { met: checks.special, text: 'One special character (recommended)' },
  ];
  return (
    <div className="flex flex-col gap-2" data-testid="password-strength">
      <div className="flex items-center justify-between text-xs">
        <span className="text-muted-foreground">Password strength</span>
        <span
          className={cn('font-semibold', password ? LABEL_COLORS[label] : 'text-muted-foreground')}
          data-testid="strength-label"
        >
          {password ? label : '—'}
        </span>
      </div>
      <div
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
        role="meter"
        aria-label="Password strength"
        aria-valuemin={0}
        aria-valuemax={STRENGTH_MAX}
        aria-valuenow={score}
        aria-valuetext={label}
      >
        <div
          data-testid="strength-bar"
          className={cn('h-full rounded-full transition-all', BAR_COLORS[label])}
          style={{ width: `${(score / STRENGTH_MAX) * 100}%` }}
        />
      </div>
      <p className="text-xs text-muted-foreground">
        Use upper and lower case letters and a number; a special character is recommended.
      </p>
      {showRequirements && (
        <ul className="grid gap-1 text-xs sm:grid-cols-2" aria-label="Password requirements">
          {requirements.map((r) => (
            <li
              key={r.text}
              className={cn('flex items-center gap-1.5', r.met ? 'text-emerald-700' : 'text-muted-foreground')}
            >
              {r.met ? (
                <Check className="size-3.5" aria-hidden="true" />
              ) : (
                <Circle className="size-3" aria-hidden="true" />
              )}
              <span>{r.text}</span>
              <span className="sr-only">{r.met ? '(met)' : '(not met)'}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
