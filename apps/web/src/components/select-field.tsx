import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';

/** Radix Select refuses '' as an item value, so "no choice" travels as this sentinel. */
const ALL = '__all';

export interface SelectFieldOption<T extends string = string> {
  value: T;
  label: string;
}

interface SelectFieldBase<T extends string> {
  /** The trigger's id; the label points at it, so getByLabel finds the field. */
  id: string;
  label: string;
  options: readonly SelectFieldOption<T>[];
  /** Width of the trigger (it is full width by default). */
  className?: string;
  /** Added to the label-and-trigger column, e.g. a grid span. */
  wrapperClassName?: string;
}

/** A required choice: the value is always one of the options. */
interface SelectFieldOne<T extends string> extends SelectFieldBase<T> {
  all?: undefined;
  value: T;
  onChange: (value: T) => void;
}

/** An optional choice: `all` is the text of the first item, which stands for no value (undefined). */
interface SelectFieldOrAll<T extends string> extends SelectFieldBase<T> {
  all: string;
  value: T | undefined;
  onChange: (value: T | undefined) => void;
}

export type SelectFieldProps<T extends string = string> = SelectFieldOne<T> | SelectFieldOrAll<T>;

/** Options from records with an id and a name (organizations, departments, categories, vendors). */
export function idOptions(items: readonly { id: string; name: string }[]): SelectFieldOption[] {
  return items.map((item) => ({ value: item.id, label: item.name }));
}

/** Options from an enum's values in their order, each with its label. */
export function enumOptions<T extends string>(values: readonly T[], labels: Record<T, string>): SelectFieldOption<T>[] {
  return values.map((value) => ({ value, label: labels[value] }));
}

/** A labelled single-choice select: the filters of the finance, budget and report screens. */
export function SelectField<T extends string>(props: SelectFieldProps<T>) {
  const { id, label, options, className, wrapperClassName } = props;
  const change = (next: string) => {
    if (props.all === undefined) props.onChange(next as T);
    else props.onChange(next === ALL ? undefined : (next as T));
  };
  return (
    <div className={cn('flex min-w-0 flex-col gap-1.5', wrapperClassName)}>
      <Label htmlFor={id}>{label}</Label>
      <Select value={props.value ?? ALL} onValueChange={change}>
        <SelectTrigger id={id} className={className}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {props.all !== undefined && <SelectItem value={ALL}>{props.all}</SelectItem>}
          {options.map((o) => (
            <SelectItem key={o.value} value={o.value}>
              {o.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}
