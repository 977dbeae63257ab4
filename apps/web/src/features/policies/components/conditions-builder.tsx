import { Plus, Trash2 } from 'lucide-react';
import {
  isConditionGroup,
  POLICY_FIELD_LABELS,
  POLICY_FIELD_VALUES,
  POLICY_OPERATOR_LABELS,
  POLICY_OPERATOR_VALUES,
  type PolicyCondition,
  type PolicyConditionGroup,
  type PolicyField,
  type PolicyOptions,
} from '@outlay/contracts/policies';
import { ROLE_LABELS, ROLES } from '@outlay/contracts/roles';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { SelectField, TextField } from '@/components/form';

const FIELD_OPTIONS = POLICY_FIELD_VALUES.map((value) => ({ value, label: POLICY_FIELD_LABELS[value] }));
const OPERATOR_OPTIONS = POLICY_OPERATOR_VALUES.map((value) => ({ value, label: POLICY_OPERATOR_LABELS[value] }));
const KIND_CHOICES = [
  { value: 'purchase', label: 'Purchase' },
  { value: 'reimbursement', label: 'Reimbursement' },
  { value: 'advance', label: 'Advance' },
];

/** The values a field can take, when it is a choice (ids shown by name). */
function choicesFor(field: PolicyField, options: PolicyOptions | undefined): { value: string; label: string }[] | null {
  if (!options) return null;
  switch (field) {
    case 'categoryId':
      return options.categories.map((c) => ({ value: c.id, label: c.name }));
    case 'departmentId':
      return options.departments.map((d) => ({
        value: d.id,
        label: `${d.name} (${options.organizations.find((o) => o.id === d.organizationId)?.name ?? ''})`,
      }));
    case 'vendorId':
      return options.vendors.map((v) => ({ value: v.id, label: v.name }));
    case 'organizationId':
      return options.organizations.map((o) => ({ value: o.id, label: o.name }));
    case 'kind':
      return KIND_CHOICES;
    case 'requesterRole':
      return ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }));
    default:
      return null;
  }
}

export function emptyCondition(): PolicyCondition {
  return { field: 'amountOrg', operator: 'gt', value: '' };
}

function ConditionRow({
  condition,
  onChange,
  onRemove,
  options,
  label,
}: {
  condition: PolicyCondition;
  onChange: (c: PolicyCondition) => void;
  onRemove: () => void;
  options: PolicyOptions | undefined;
  label: string;
}) {
  const choices = choicesFor(condition.field, options);
  const multi = condition.operator === 'in' || condition.operator === 'not_in';
  const value = Array.isArray(condition.value) ? condition.value : String(condition.value ?? '');
  return (
    <div
      role="group"
      aria-label={label}
      className="grid gap-2 rounded-md border bg-card p-2 sm:grid-cols-[1fr_9rem_1.4fr_auto] sm:items-end"
    >
      <SelectField
        label="Field"
        value={condition.field}
        options={FIELD_OPTIONS}
        onChange={(f) => onChange({ field: f as PolicyField, operator: condition.operator, value: '' })}
      />
      <SelectField
        label="Operator"
        value={condition.operator}
        options={OPERATOR_OPTIONS}
        onChange={(op) =>
          onChange({
            ...condition,
            operator: op as PolicyCondition['operator'],
            value: op === 'in' || op === 'not_in' ? [] : Array.isArray(condition.value) ? '' : condition.value,
          })
        }
      />
      {choices && multi ? (
        <fieldset className="flex max-h-32 flex-col gap-1 overflow-y-auto rounded-md border p-2 text-sm">
          <legend className="px-1 text-sm font-medium">Values</legend>
          {choices.map((c) => {
            const list = Array.isArray(value) ? value : [];
            return (
              <label key={c.value} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  checked={list.includes(c.value)}
                  onChange={(e) =>
                    onChange({
                      ...condition,
                      value: e.target.checked ? [...list, c.value] : list.filter((x) => x !== c.value),
                    })
                  }
                />
                {c.label}
              </label>
            );
          })}
        </fieldset>
      ) : choices && (condition.operator === 'eq' || condition.operator === 'neq') ? (
        <SelectField
          label="Value"
          value={String(value)}
          options={choices}
          placeholder="Choose…"
          onChange={(v) => onChange({ ...condition, value: v })}
        />
      ) : (
        <TextField
          label="Value"
          value={Array.isArray(value) ? value.join(', ') : value}
          placeholder={condition.field === 'expenseDate' ? 'YYYY-MM-DD' : multi ? 'a, b, c' : ''}
          inputMode={condition.field === 'amount' || condition.field === 'amountOrg' ? 'decimal' : undefined}
          onChange={(v) =>
            onChange({
              ...condition,
              value: multi
                ? v
                    .split(',')
                    .map((x) => x.trim())
                    .filter(Boolean)
                : v,
            })
          }
        />
      )}
      <Button type="button" variant="ghost" size="icon" onClick={onRemove} aria-label={`Remove ${label.toLowerCase()}`}>
        <Trash2 aria-hidden="true" />
      </Button>
    </div>
  );
}

/** AND/OR groups of field/operator/value rows, nested as deep as needed. */
export function ConditionGroupEditor({
  group,
  onChange,
  onRemove,
  options,
  depth = 0,
  path = 'Conditions',
}: {
  group: PolicyConditionGroup;
  onChange: (g: PolicyConditionGroup) => void;
  onRemove?: () => void;
  options: PolicyOptions | undefined;
  depth?: number;
  path?: string;
}) {
  const set = (i: number, item: PolicyCondition | PolicyConditionGroup) =>
    onChange({ ...group, items: group.items.map((x, j) => (j === i ? item : x)) });
  const remove = (i: number) => onChange({ ...group, items: group.items.filter((_, j) => j !== i) });
  return (
    <div
      role="group"
      aria-label={path}
      className={cn('flex flex-col gap-2 rounded-lg border p-3', depth % 2 === 0 ? 'bg-muted/40' : 'bg-card')}
    >
      <div className="flex flex-wrap items-end gap-2">
        <SelectField
          label={depth === 0 ? 'Match' : 'Group matches'}
          className="w-44"
          value={group.op}
          options={[
            { value: 'and', label: 'All of (AND)' },
            { value: 'or', label: 'Any of (OR)' },
          ]}
          onChange={(op) => onChange({ ...group, op: op as 'and' | 'or' })}
        />
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => onChange({ ...group, items: [...group.items, emptyCondition()] })}
        >
          <Plus aria-hidden="true" />
          Condition
        </Button>
        {depth < 3 && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={() =>
              onChange({
                ...group,
                items: [...group.items, { op: group.op === 'and' ? 'or' : 'and', items: [emptyCondition()] }],
              })
            }
          >
            <Plus aria-hidden="true" />
            Group
          </Button>
        )}
        {onRemove && (
          <Button type="button" variant="ghost" size="sm" onClick={onRemove}>
            <Trash2 aria-hidden="true" />
            Remove group
          </Button>
        )}
      </div>
      {group.items.length === 0 && (
        <p className="text-sm text-muted-foreground">No conditions: the rule applies to every request.</p>
      )}
      {group.items.map((item, i) =>
        isConditionGroup(item) ? (
          <ConditionGroupEditor
            key={i}
            group={item}
            depth={depth + 1}
            path={`${path}, group ${i + 1}`}
            options={options}
            onChange={(g) => set(i, g)}
            onRemove={() => remove(i)}
          />
        ) : (
          <ConditionRow
            key={i}
            label={`Condition ${i + 1}${depth > 0 ? ` of ${path.toLowerCase()}` : ''}`}
            condition={item}
            options={options}
            onChange={(c) => set(i, c)}
            onRemove={() => remove(i)}
          />
        ),
      )}
    </div>
  );
}
