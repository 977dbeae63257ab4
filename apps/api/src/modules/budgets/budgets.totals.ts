// How budget lines add up into a total (docs/decisions/010): lines of different granularities are
// never added together, and within one granularity a line inside another line is not added.
// Budget vs actual and the dashboard's budget burn both total this way.
import type { BudgetPeriodType } from '@outlay/contracts';

/** Coarsest first: the order totals are shown in, and the dashboard's choice of granularity. */
export const GRANULARITY_ORDER: readonly BudgetPeriodType[] = ['year', 'quarter', 'month'];

export interface ScopedLine {
  id: string;
  organizationId: string;
  departmentId: string | null;
  categoryId: string | null;
  periodType: BudgetPeriodType;
  periodStart: string;
  periodEnd: string;
  countsPayroll: boolean;
}

/** Whether every request `inner` consumes is also one `outer` consumes: its scope and period cover the other's. */
function covers(outer: ScopedLine, inner: ScopedLine): boolean {
  return (
    outer.organizationId === inner.organizationId &&
    (outer.departmentId === null || outer.departmentId === inner.departmentId) &&
    (outer.categoryId === null || outer.categoryId === inner.categoryId) &&
    // Payroll a line counts is money a line that does not count it never holds.
    (outer.countsPayroll || !inner.countsPayroll) &&
    outer.periodStart <= inner.periodStart &&
    outer.periodEnd >= inner.periodEnd
  );
}

/**
 * For each line contained in another line of the same granularity, the outermost line that
 * contains it (an organization's FY line contains its department's FY line). Lines of different
 * granularities are never compared: they are totalled apart.
 */
export function containersOf(lines: readonly ScopedLine[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const inner of lines) {
    const outers = lines.filter(
      (o) =>
        o.id !== inner.id &&
        o.periodType === inner.periodType &&
        covers(o, inner) &&
        !(covers(inner, o) && o.id > inner.id),
    );
    // The outermost: one no other candidate contains.
    const top = outers.find(
      (o) => !outers.some((p) => p.id !== o.id && covers(p, o) && !(covers(o, p) && p.id > o.id)),
    );
    if (top) out.set(inner.id, top.id);
  }
  return out;
}

/**
 * The lines one total may add: those of the coarsest granularity present, less the lines inside
 * another of them. An empty list gives `{ periodType: null, lines: [] }`.
 */
export function linesOfOneTotal<L extends ScopedLine>(
  lines: readonly L[],
): { periodType: BudgetPeriodType | null; lines: L[] } {
  const periodType = GRANULARITY_ORDER.find((type) => lines.some((l) => l.periodType === type)) ?? null;
  const members = lines.filter((l) => l.periodType === periodType);
  const contained = containersOf(members);
  return { periodType, lines: members.filter((l) => !contained.has(l.id)) };
}
