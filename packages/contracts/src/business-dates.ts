/**
 * How a pay or due date that was moved to a business day reads, without a schema: the payroll
 * and payables screens and the calendar feed say it the same way.
 */
type FormatDate = (day: string) => string | null;

/** "moved from Dec 25, 2026 (Christmas Day)"; null when the date was not moved. */
export function movedDateNote(
  adjustedFrom: string | null | undefined,
  reason: string | null | undefined,
  formatDate: FormatDate,
): string | null {
  if (!adjustedFrom) return null;
  const from = formatDate(adjustedFrom) ?? adjustedFrom;
  return reason ? `moved from ${from} (${reason})` : `moved from ${from}`;
}
