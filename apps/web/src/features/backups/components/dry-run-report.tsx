import { CheckCircle2, XCircle } from 'lucide-react';
import type { BackupDryRun } from '@outlay/contracts/backups';
import { formatNumber, plural } from '@/lib/format';
import { cn } from '@/lib/utils';

/** The dry run's findings: checksum, schema version, and each table's rows now and in the backup. */
export function DryRunReport({ report }: { report: BackupDryRun }) {
  const changed = report.tables.filter((t) => t.current !== t.backup);
  return (
    <section className="flex flex-col gap-4" aria-label="Dry run report" data-testid="dry-run-report">
      <ul className="flex flex-col gap-2 text-sm">
        <li className="flex items-center gap-2">
          <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
          Checksum verified: the file is the one that was written.
        </li>
        <li className="flex items-center gap-2">
          {report.schemaVersion.matches ? (
            <CheckCircle2 className="size-4 text-emerald-600" aria-hidden="true" />
          ) : (
            <XCircle className="size-4 text-destructive" aria-hidden="true" />
          )}
          {report.schemaVersion.matches
            ? `Schema version ${report.schemaVersion.current} matches.`
            : `Schema version differs: the backup is at ${report.schemaVersion.backup}, the database at ${report.schemaVersion.current}. This backup cannot be restored.`}
        </li>
        <li>
          {formatNumber(report.totalCurrent)} rows now, {formatNumber(report.totalBackup)} in the backup;{' '}
          {plural(changed.length, 'table')} would change. {plural(report.sessionsToRevoke, 'session')} would end:
          everyone signs in again.
        </li>
      </ul>
      <div className="max-h-96 overflow-auto rounded-md border" tabIndex={0} role="region" aria-label="Rows per table">
        <table className="w-full text-sm">
          <caption className="sr-only">Rows per table, now and in the backup</caption>
          <thead className="sticky top-0 bg-muted text-left">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Table
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Now
              </th>
              <th scope="col" className="px-3 py-2 text-right font-medium">
                Backup
              </th>
            </tr>
          </thead>
          <tbody>
            {report.tables.map((t) => (
              <tr
                key={t.table}
                className={cn('border-t', t.current !== t.backup && 'bg-amber-50')}
                data-testid="dry-run-table"
                data-table={t.table}
              >
                <td className="break-all px-3 py-1.5 font-mono text-xs">{t.table}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatNumber(t.current)}</td>
                <td className="px-3 py-1.5 text-right tabular-nums">{formatNumber(t.backup)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
