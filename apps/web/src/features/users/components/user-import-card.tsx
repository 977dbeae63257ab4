import { CheckCircle2, Copy, Download, FileUp, TriangleAlert } from 'lucide-react';
import { useId, useState } from 'react';
import {
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_CHARS,
  type UserImportResponse,
  type UserImportRowReport,
} from '@outlay/contracts/users';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { toast } from '@/components/ui/use-toast';
import { isApiError, messageOf } from '@/lib/api-error';
import { useImportUsers } from '../api/users-import';
import { copyText } from './user-temp-password-dialog';

const TEMPLATE = `${USER_IMPORT_COLUMNS.join(',')}\nAna,Silva,ana.silva@meridianfoods.com,requester,MF,MF-FIN,\n`;

function downloadText(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function csvCell(value: string) {
  return /[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

type Outcome =
  | { kind: 'preview'; result: UserImportResponse }
  | { kind: 'refused'; message: string; report: UserImportRowReport[] }
  | { kind: 'imported'; result: UserImportResponse };

function ReportTable({ report }: { report: UserImportRowReport[] }) {
  return (
    <div className="max-h-80 overflow-auto rounded-md border" tabIndex={0} role="region" aria-label="Row report">
      <table className="w-full text-sm">
        <caption className="sr-only">What each row of the file would do</caption>
        <thead className="sticky top-0 bg-muted text-left text-xs uppercase text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2">
              Row
            </th>
            <th scope="col" className="px-3 py-2">
              E-mail
            </th>
            <th scope="col" className="px-3 py-2">
              Result
            </th>
          </tr>
        </thead>
        <tbody>
          {report.map((r) => (
            <tr key={r.row} className="border-t align-top" data-testid="import-row">
              <td className="px-3 py-2 tabular-nums">{r.row}</td>
              <td className="px-3 py-2 break-all">{r.email || '—'}</td>
              <td className="px-3 py-2">
                {r.errors.length === 0 ? (
                  <Badge variant="success">Ready</Badge>
                ) : (
                  <ul className="list-disc space-y-0.5 pl-4 text-red-800">
                    {r.errors.map((e) => (
                      <li key={e}>{e}</li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** CSV import: preview (a dry run with the per-row report), then import — all rows or none. */
export function UserImportCard() {
  const inputId = useId();
  const mutation = useImportUsers();
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const choose = async (picked: File | undefined) => {
    setOutcome(null);
    setFileError(null);
    setFile(null);
    if (!picked) return;
    if (picked.size > USER_IMPORT_MAX_CHARS) {
      setFileError('The file is larger than 1 MB; split it into smaller files.');
      return;
    }
    setFile({ name: picked.name, text: await picked.text() });
  };

  const run = async (dryRun: boolean) => {
    if (!file) return;
    try {
      const result = await mutation.mutateAsync({ csv: file.text, dryRun });
      setOutcome(dryRun ? { kind: 'preview', result } : { kind: 'imported', result });
      if (!dryRun) toast({ title: `${result.created.length} users imported`, variant: 'success' });
    } catch (error) {
      const report = isApiError(error) && Array.isArray(error.details) ? (error.details as UserImportRowReport[]) : [];
      setOutcome({
        kind: 'refused',
        message: messageOf(error, 'The import failed.'),
        report: report.filter((r) => typeof r?.row === 'number'),
      });
    }
  };

  const preview = outcome?.kind === 'preview' ? outcome.result : null;
  const ready = preview !== null && preview.valid === preview.total;
  const created = outcome?.kind === 'imported' ? outcome.result.created : [];

  return (
    <Card>
      <CardHeader>
        <CardTitle>Import users from CSV</CardTitle>
        <CardDescription>
          Columns: {USER_IMPORT_COLUMNS.join(', ')} (username optional). Every row is checked first; if any row has an
          error, nothing is imported.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex min-w-0 flex-1 flex-col gap-1.5">
            <Label htmlFor={inputId}>CSV file</Label>
            <input
              id={inputId}
              type="file"
              accept=".csv,text/csv"
              className="block w-full text-sm file:mr-3 file:rounded-md file:border file:border-input file:bg-card file:px-3 file:py-2 file:text-sm file:font-medium"
              aria-describedby={fileError ? `${inputId}-error` : undefined}
              onChange={(event) => void choose(event.target.files?.[0])}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => downloadText(TEMPLATE, 'users-template.csv')}>
              <Download aria-hidden="true" />
              Template
            </Button>
            <Button variant="outline" disabled={!file || mutation.isPending} onClick={() => void run(true)}>
              <FileUp aria-hidden="true" />
              {mutation.isPending && mutation.variables?.dryRun ? 'Checking…' : 'Preview'}
            </Button>
            <Button disabled={!ready || mutation.isPending} onClick={() => void run(false)}>
              {mutation.isPending && mutation.variables?.dryRun === false
                ? 'Importing…'
                : ready
                  ? `Import ${preview.total} users`
                  : 'Import'}
            </Button>
          </div>
        </div>
        {fileError && (
          <p id={`${inputId}-error`} className="text-sm text-red-800">
            {fileError}
          </p>
        )}

        {preview && (
          <>
            <Alert variant={ready ? 'success' : 'warning'} role="status">
              {ready ? <CheckCircle2 aria-hidden="true" /> : <TriangleAlert aria-hidden="true" />}
              <span>
                {ready
                  ? `All ${preview.total} rows are ready. Nothing has been imported yet.`
                  : `${preview.total - preview.valid} of ${preview.total} rows have errors. Fix the file and preview again; nothing is imported while any row fails.`}
              </span>
            </Alert>
            <ReportTable report={preview.report} />
          </>
        )}

        {outcome?.kind === 'refused' && (
          <>
            <Alert variant="danger" role="alert">
              <TriangleAlert aria-hidden="true" />
              <span>{outcome.message}</span>
            </Alert>
            {outcome.report.length > 0 && <ReportTable report={outcome.report} />}
          </>
        )}

        {created.length > 0 && (
          <>
            <Alert variant="success" role="status">
              <CheckCircle2 aria-hidden="true" />
              <span>
                {created.length} users created. Their temporary passwords are shown only now; copy them before you leave
                this page.
              </span>
            </Alert>
            <div className="flex flex-wrap gap-2">
              <Button
                variant="outline"
                onClick={() =>
                  void copyText(
                    [
                      'name,username,email,temporaryPassword',
                      ...created.map((c) => [c.name, c.username, c.email, c.temporaryPassword].map(csvCell).join(',')),
                    ].join('\n'),
                    'Temporary passwords',
                  )
                }
              >
                <Copy aria-hidden="true" />
                Copy all as CSV
              </Button>
            </div>
            <div
              className="max-h-80 overflow-auto rounded-md border"
              tabIndex={0}
              role="region"
              aria-label="Imported users"
            >
              <table className="w-full text-sm">
                <thead className="bg-muted text-left text-xs uppercase text-muted-foreground">
                  <tr>
                    <th scope="col" className="px-3 py-2">
                      Name
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Username
                    </th>
                    <th scope="col" className="px-3 py-2">
                      Temporary password
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {created.map((c) => (
                    <tr key={c.id} className="border-t">
                      <td className="px-3 py-2">{c.name}</td>
                      <td className="px-3 py-2">{c.username}</td>
                      <td className="px-3 py-2 font-mono">{c.temporaryPassword}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
