// Which month each organization's fiscal year starts in. The group's calendar is the one the
// group-wide views (consolidation, reports over several companies, the copilot without a
// company named) use, as a parent consolidates its subsidiaries at its own reporting dates.
import { organizations, type Db } from '@outlay/db';

export interface FiscalCalendars {
  /** The group organization's first month (1 when there is no group row). */
  group: number;
  /** An organization's first month; the group's for none or one not found. */
  of(organizationId?: string | null): number;
  /** Every first month in use, each once. */
  starts: number[];
}

export async function fiscalCalendars(db: Db): Promise<FiscalCalendars> {
  const rows = await db
    .select({ id: organizations.id, kind: organizations.kind, start: organizations.fiscalYearStartMonth })
    .from(organizations);
  const byId = new Map(rows.map((r) => [r.id, r.start]));
  const group = rows.find((r) => r.kind === 'group')?.start ?? 1;
  return {
    group,
    of: (organizationId) => (organizationId ? (byId.get(organizationId) ?? group) : group),
    starts: [...new Set([group, ...byId.values()])],
  };
}
