import { Camera, FileText, RotateCcw } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { RECEIPT_ACCEPT, RECEIPT_MAX_BYTES, RECEIPT_MESSAGES } from '@outlay/contracts/receipts';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { isApiError, messageOf } from '@/lib/api-error';
import { useRequestOptions } from '@/features/requests';
import { useScanReceipt } from '../api/scan-receipt';
import { ReceiptReview } from '../components/receipt-review';

/** Receipts shipped with the app (apps/web/public/samples/receipts), for a try without a receipt at hand. */
export const SAMPLE_RECEIPTS = [
  { file: 'us-coffee-photo.jpg', label: 'Coffee shop photo (USD)', type: 'image/jpeg' },
  { file: 'de-drugstore.png', label: 'German drugstore (EUR)', type: 'image/png' },
  { file: 'us-office-invoice-text.pdf', label: 'Office supplies invoice (PDF)', type: 'application/pdf' },
] as const;

function problemOf(file: File): string | null {
  if (file.size === 0) return RECEIPT_MESSAGES.empty;
  if (file.size > RECEIPT_MAX_BYTES) return RECEIPT_MESSAGES.size;
  return null;
}

function Preview({ file }: { file: File }) {
  const url = useMemo(() => (file.type.startsWith('image/') ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  const [broken, setBroken] = useState<string | null>(null);
  if (!url || broken === url) {
    return (
      <div className="flex items-center gap-2 rounded-md border p-3 text-sm">
        <FileText className="size-5" aria-hidden="true" />
        {file.name}
      </div>
    );
  }
  return (
    <img
      src={url}
      alt={`The receipt ${file.name}`}
      onError={() => setBroken(url)}
      className="max-h-96 w-full rounded-md border object-contain sm:max-h-[32rem]"
    />
  );
}

/**
 * /receipt-photo-ai: upload or photograph a receipt (the phone's camera opens directly), the
 * server reads it offline, the person reviews each field with its confidence and creates the
 * request with the receipt attached.
 */
export default function ReceiptPhotoAiPage() {
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const options = useRequestOptions();
  const scan = useScanReceipt();
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loadingSample, setLoadingSample] = useState(false);

  const read = (chosen: File) => {
    setProblem(null);
    const refused = problemOf(chosen);
    setFile(chosen);
    scan.reset();
    if (refused) {
      setProblem(refused);
      return;
    }
    scan.mutate(chosen);
  };

  const readSample = async (sample: (typeof SAMPLE_RECEIPTS)[number]) => {
    setLoadingSample(true);
    try {
      const res = await fetch(`/samples/receipts/${sample.file}`);
      if (!res.ok) throw new Error('The sample receipt could not be loaded');
      read(new File([await res.blob()], sample.file, { type: sample.type }));
    } catch (error) {
      setProblem(messageOf(error, 'The sample receipt could not be loaded'));
    } finally {
      setLoadingSample(false);
    }
  };

  const startOver = () => {
    setFile(null);
    setProblem(null);
    scan.reset();
    if (inputRef.current) inputRef.current.value = '';
  };

  const reading = scan.isPending || loadingSample;

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader
        title="Receipt Photo AI"
        description="Photograph or upload a receipt: it is read on the server (nothing leaves it), you check the fields and create the request with the receipt attached."
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <Card>
          <CardContent className="flex flex-col gap-4 pt-6">
            <div className="flex flex-col gap-2">
              <label htmlFor={inputId} className="text-sm font-medium">
                Receipt photo or PDF
              </label>
              <input
                ref={inputRef}
                id={inputId}
                type="file"
                accept={RECEIPT_ACCEPT}
                capture="environment"
                disabled={reading}
                aria-describedby={`${inputId}-hint`}
                className="block w-full text-sm file:mr-3 file:rounded-md file:border-0 file:bg-primary file:px-3 file:py-2 file:text-sm file:font-medium file:text-primary-foreground"
                onChange={(e) => {
                  const chosen = e.target.files?.[0];
                  if (chosen) read(chosen);
                }}
              />
              <p id={`${inputId}-hint`} className="text-xs text-muted-foreground">
                <Camera className="mr-1 inline size-3.5" aria-hidden="true" />
                On a phone this opens the camera. PNG, JPEG or PDF, at most 10 MB.
              </p>
            </div>
            <div className="flex flex-col gap-2">
              <p className="text-sm font-medium">No receipt at hand? Try a sample</p>
              <div className="flex flex-wrap gap-2">
                {SAMPLE_RECEIPTS.map((s) => (
                  <Button
                    key={s.file}
                    type="button"
                    variant="outline"
                    size="sm"
                    disabled={reading}
                    onClick={() => void readSample(s)}
                  >
                    {s.label}
                  </Button>
                ))}
              </div>
            </div>
            {file && <Preview file={file} />}
          </CardContent>
        </Card>
        <div className="flex min-w-0 flex-col gap-4">
          {problem && (
            <Alert variant="danger" role="alert">
              <span>{problem}</span>
            </Alert>
          )}
          {!file && !problem && (
            <Card>
              <CardContent className="pt-6 text-sm text-muted-foreground">
                Choose or photograph a receipt: the merchant, date, total, tax and currency appear here to review, each
                with how sure the reader is.
              </CardContent>
            </Card>
          )}
          {reading && (
            <Card>
              <CardContent
                className="flex min-h-40 flex-col items-center justify-center gap-3 pt-6"
                data-testid="receipt-reading"
              >
                <Spinner label={loadingSample ? 'Loading the sample' : 'Reading the receipt'} />
                <p className="text-sm text-muted-foreground">
                  {loadingSample
                    ? 'Loading the sample…'
                    : 'Uploading and reading the receipt… this takes a few seconds.'}
                </p>
              </CardContent>
            </Card>
          )}
          {scan.isError && (
            <>
              {/* A refused file stays refused: retrying helps only when the server or the network failed. */}
              <QueryError
                error={scan.error}
                message="The receipt could not be read."
                onRetry={
                  isApiError(scan.error) && scan.error.status < 500 ? undefined : () => file && scan.mutate(file)
                }
              />
              <Button type="button" variant="outline" onClick={startOver} className="self-start">
                <RotateCcw aria-hidden="true" />
                Choose another file
              </Button>
            </>
          )}
          {scan.isSuccess && file && options.isLoading && <Spinner label="Loading the form" />}
          {scan.isSuccess && file && options.isError && (
            <QueryError
              error={options.error}
              message="The request form could not be loaded."
              onRetry={options.refetch}
            />
          )}
          {scan.isSuccess && file && options.data && (
            <ReceiptReview
              key={file.name + file.size}
              scan={scan.data}
              file={file}
              options={options.data}
              onAnother={startOver}
            />
          )}
        </div>
      </div>
    </div>
  );
}
