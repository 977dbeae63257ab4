import { useQueryClient } from '@tanstack/react-query';
import { Download, Eye, FileText, Paperclip, Trash2, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { ATTACHMENT_ACCEPT, type Attachment } from '@outlay/contracts/requests';
import { downloadFile } from '@/components/data-table';
import { ConfirmDialog, FieldError } from '@/components/form';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { messageOf } from '@/lib/api-error';
import { formatDateTime } from '@/lib/format';
import { deleteAttachment } from '@/features/requests/api/delete-attachment';
import { useObjectUrl } from '@/features/requests/api/get-attachment-content';
import { invalidateRequests } from '@/features/requests/api/keys';
import { attachmentProblem, uploadAttachment } from '@/features/requests/api/upload-attachment';

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** A thumbnail loaded with the session's headers; a file icon when there is none. */
export function AttachmentThumbnail({
  attachment,
  className = 'size-16',
}: {
  attachment: Attachment;
  className?: string;
}) {
  const { src, failed } = useObjectUrl(attachment.hasThumbnail ? attachment.thumbnailUrl : null);
  if (attachment.hasThumbnail && attachment.thumbnailUrl && !failed) {
    return (
      <span
        className={`${className} flex shrink-0 items-center justify-center overflow-hidden rounded-md border bg-slate-50`}
      >
        {src ? (
          <img
            src={src}
            alt={`Preview of ${attachment.fileName}`}
            className="size-full object-cover"
            data-testid="attachment-thumbnail"
          />
        ) : (
          <Spinner className="scale-75" label="Loading preview" />
        )}
      </span>
    );
  }
  return (
    <span
      className={`${className} flex shrink-0 items-center justify-center rounded-md border bg-slate-50 text-muted-foreground`}
      aria-hidden="true"
    >
      <FileText className="size-6" />
    </span>
  );
}

function AttachmentPreview({ attachment, onClose }: { attachment: Attachment; onClose: () => void }) {
  const { src, failed } = useObjectUrl(attachment.url);
  const isImage = attachment.contentType.startsWith('image/');
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle className="break-all pr-6">{attachment.fileName}</DialogTitle>
          <DialogDescription>
            {formatBytes(attachment.size)} · added by {attachment.uploadedBy.name} ·{' '}
            {formatDateTime(attachment.createdAt)}
          </DialogDescription>
        </DialogHeader>
        <div className="flex min-h-48 items-center justify-center rounded-md border bg-slate-50">
          {failed ? (
            <p className="p-6 text-sm text-destructive">The file could not be loaded.</p>
          ) : !src ? (
            <Spinner label="Loading file" />
          ) : isImage ? (
            <img src={src} alt={attachment.fileName} className="max-h-[65dvh] w-auto object-contain" />
          ) : (
            <iframe src={src} title={attachment.fileName} className="h-[65dvh] w-full rounded-md" />
          )}
        </div>
        <div className="flex justify-end">
          <Button variant="outline" onClick={() => void downloadFile(attachment.url, attachment.fileName)}>
            <Download aria-hidden="true" />
            Download
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}

interface AttachmentsSectionProps {
  requestId: string;
  attachments: Attachment[];
  canAttach: boolean;
  onChanged?: () => void;
}

export function AttachmentsSection({ requestId, attachments, canAttach, onChanged }: AttachmentsSectionProps) {
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const [problems, setProblems] = useState<string[]>([]);
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState<Attachment | null>(null);
  const [removing, setRemoving] = useState<Attachment | null>(null);

  const upload = async (files: File[]) => {
    const errors: string[] = [];
    const ok: File[] = [];
    for (const file of files) {
      const problem = attachmentProblem(file, attachments.length + ok.length);
      if (problem) errors.push(`${file.name}: ${problem}`);
      else ok.push(file);
    }
    setProblems(errors);
    if (ok.length === 0) return;
    setUploading(true);
    try {
      for (const file of ok) {
        try {
          await uploadAttachment(requestId, file);
        } catch (error) {
          errors.push(`${file.name}: ${messageOf(error, 'The upload failed')}`);
        }
      }
    } finally {
      setUploading(false);
      setProblems([...errors]);
      await invalidateRequests(queryClient);
      onChanged?.();
    }
  };

  return (
    <div className="flex flex-col gap-3">
      {attachments.length === 0 ? (
        <p className="text-sm text-muted-foreground">No attachments yet.</p>
      ) : (
        <ul className="grid gap-2 sm:grid-cols-2" aria-label="Attachments">
          {attachments.map((a) => (
            <li key={a.id} className="flex items-center gap-3 rounded-lg border p-2">
              <button
                type="button"
                className="cursor-pointer rounded-md focus-visible:outline-2 focus-visible:outline-ring"
                onClick={() => setPreviewing(a)}
                aria-label={`Open ${a.fileName}`}
              >
                <AttachmentThumbnail attachment={a} className="size-14" />
              </button>
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="truncate text-sm font-medium" title={a.fileName}>
                  {a.fileName}
                </span>
                <span className="text-xs text-muted-foreground">
                  {formatBytes(a.size)} · {a.uploadedBy.name}
                </span>
              </div>
              <div className="flex shrink-0">
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  onClick={() => setPreviewing(a)}
                  aria-label={`View ${a.fileName}`}
                >
                  <Eye aria-hidden="true" />
                </Button>
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-8"
                  onClick={() =>
                    void downloadFile(a.url, a.fileName).catch((e: unknown) =>
                      toast({
                        variant: 'destructive',
                        title: 'Download failed',
                        description: messageOf(e, 'Try again.'),
                      }),
                    )
                  }
                  aria-label={`Download ${a.fileName}`}
                >
                  <Download aria-hidden="true" />
                </Button>
                {canAttach && (
                  <Button
                    variant="ghost"
                    size="icon"
                    className="size-8 text-destructive"
                    onClick={() => setRemoving(a)}
                    aria-label={`Remove ${a.fileName}`}
                  >
                    <Trash2 aria-hidden="true" />
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      {canAttach && (
        <div className="flex flex-col gap-1.5">
          <input
            ref={inputRef}
            type="file"
            multiple
            accept={ATTACHMENT_ACCEPT}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            data-testid="detail-attachment-input"
            onChange={(event) => {
              const files = Array.from(event.target.files ?? []);
              event.target.value = '';
              void upload(files);
            }}
          />
          <div>
            <Button
              variant="outline"
              size="sm"
              onClick={() => inputRef.current?.click()}
              disabled={uploading}
              aria-describedby={problems.length ? errorId : undefined}
            >
              {uploading ? <Upload aria-hidden="true" className="animate-pulse" /> : <Paperclip aria-hidden="true" />}
              {uploading ? 'Uploading…' : 'Attach files'}
            </Button>
          </div>
          <p className="text-xs text-muted-foreground">Images (JPEG, PNG, WebP, GIF) or PDF, up to 10 MB each.</p>
          {problems.length > 0 && (
            <FieldError id={errorId}>
              {problems.map((p) => (
                <span key={p} className="block">
                  {p}
                </span>
              ))}
            </FieldError>
          )}
        </div>
      )}
      {previewing && <AttachmentPreview attachment={previewing} onClose={() => setPreviewing(null)} />}
      <ConfirmDialog
        open={Boolean(removing)}
        onOpenChange={(open) => !open && setRemoving(null)}
        title={`Remove ${removing?.fileName ?? 'attachment'}?`}
        description="The file is removed from the request. This is recorded in the timeline."
        confirmLabel="Remove"
        onConfirm={async () => {
          if (!removing) return;
          await deleteAttachment(requestId, removing.id);
          await invalidateRequests(queryClient);
          onChanged?.();
        }}
      />
    </div>
  );
}
