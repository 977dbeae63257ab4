import { BookOpen, Download, FileJson } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { toast } from '@/components/ui/use-toast';
import { ACCOUNTING_JOURNAL_URL, downloadJournal } from '@/features/consolidation';
import { messageOf } from '@/lib/api-error';

/** The server serves its OpenAPI document and an explorer for it under this path. */
const DOCS_URL = '/api/docs';

function lastMonth(now = new Date()) {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

/** Where programs start: the API's reference and the accounting journal export. */
export function ApiReferenceCard() {
  const [downloading, setDownloading] = useState(false);
  const download = async () => {
    setDownloading(true);
    try {
      await downloadJournal(lastMonth(), 'csv');
    } catch (error) {
      toast({
        title: 'Could not download the journal',
        description: messageOf(error, 'Please try again.'),
        variant: 'destructive',
      });
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>API reference and accounting export</CardTitle>
        <CardDescription>
          Every endpoint, its permission and its fields are described in the OpenAPI document the server publishes.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <div className="flex flex-wrap gap-2">
          <Button asChild variant="outline">
            <a href={DOCS_URL} target="_blank" rel="noreferrer">
              <BookOpen aria-hidden="true" />
              API documentation
            </a>
          </Button>
          <Button asChild variant="outline">
            <a href={`${DOCS_URL}/json`} target="_blank" rel="noreferrer">
              <FileJson aria-hidden="true" />
              OpenAPI document (JSON)
            </a>
          </Button>
          <Button variant="outline" onClick={() => void download()} disabled={downloading}>
            <Download aria-hidden="true" />
            {downloading ? 'Downloading…' : 'Last month’s journal (CSV)'}
          </Button>
        </div>
        <p className="text-muted-foreground">
          Accounting systems can fetch the journal with a key holding “See reports and analytics”:{' '}
          <code className="break-all">
            GET {ACCOUNTING_JOURNAL_URL}?from=2026-01-01&amp;to=2026-01-31&amp;format=csv
          </code>
        </p>
      </CardContent>
    </Card>
  );
}
