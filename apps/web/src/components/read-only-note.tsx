import { Eye } from 'lucide-react';
import type { Permission } from '@outlay/contracts/permissions';
import { useAuth } from '@/lib/current-user';

/** Whether the signed-in person holds a permission (what the server checks on every change). */
export function useHolds(permission: Permission): boolean {
  const { user } = useAuth();
  return Boolean(user?.permissions.includes(permission));
}

/** Said on a screen a role may read but not change, so nobody wonders why there is nothing to click. */
export function ReadOnlyNote({ children }: { children?: string }) {
  return (
    <p
      role="note"
      className="mb-4 inline-flex self-start items-center gap-2 rounded-md border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700"
    >
      <Eye className="size-4 shrink-0" aria-hidden="true" />
      {children ?? 'Read-only for your role: you can see everything here; an administrator makes the changes.'}
    </p>
  );
}
