import { Badge, type BadgeProps } from '@/components/ui/badge';
import { capitalize, roleLabel } from '@/lib/format';

/** docs/product.md §6.3: owner, admin, cfo and manager have their own styling; other roles use the default. */
const ROLE_VARIANTS: Record<string, BadgeProps['variant']> = {
  owner: 'purple',
  admin: 'danger',
  cfo: 'success',
  manager: 'primary',
};

export function RoleBadge({ role, className }: { role: string; className?: string }) {
  return (
    <Badge
      variant={ROLE_VARIANTS[role] ?? 'default'}
      className={className}
      data-testid="role-badge"
      title={roleLabel(role)}
    >
      <span className="truncate">{roleLabel(role)}</span>
    </Badge>
  );
}

const STATUS_VARIANTS: Record<string, BadgeProps['variant']> = {
  active: 'success',
  pending: 'warning',
  inactive: 'default',
};

export function StatusBadge({ status }: { status: string }) {
  return <Badge variant={STATUS_VARIANTS[status] ?? 'default'}>{capitalize(status)}</Badge>;
}
