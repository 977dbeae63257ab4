import { useCallback, useState } from 'react';
import { PersonCombobox, type PersonComboboxProps } from '@/components/combobox';
import { messageOf } from '@/lib/api-error';
import { roleLabel } from '@/lib/format';
import { useApproverOptions } from './api';

type Props = Omit<PersonComboboxProps, 'options' | 'onQueryChange' | 'loading' | 'error'> & {
  organizationId?: string | null;
  /** People not to offer (e.g. the approver an item is moved away from). */
  exclude?: readonly string[];
};

/** A person picker over `GET /api/workflows/approver-options`. */
export function ApproverPicker({ organizationId, exclude, ...props }: Props) {
  const [q, setQ] = useState('');
  const options = useApproverOptions(q, organizationId);
  const onQueryChange = useCallback((next: string) => setQ(next), []);
  const items = (options.data ?? [])
    .filter((o) => !exclude?.includes(o.id))
    .map((o) => ({
      id: o.id,
      name: o.name,
      detail: [roleLabel(o.role), o.organizationName].filter(Boolean).join(' · '),
    }));
  return (
    <PersonCombobox
      {...props}
      options={items}
      onQueryChange={onQueryChange}
      loading={options.isFetching}
      error={options.isError ? messageOf(options.error, 'Could not search people.') : null}
    />
  );
}
