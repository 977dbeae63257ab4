import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation, useSearchParams } from 'wouter';
import { useRequestDetail } from '../api/get-request';
import { PageHeader } from '@/components/page-header';
import { SiblingScreens } from '@/components/sibling-screens';
import { QueryError } from '@/components/query-state';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useRequestOptions } from '../api/get-request-options';
import { RequestForm } from './request-form';

const PATHS = { simple: '/new-request', advanced: '/advanced-request', smart: '/smart-form' } as const;

/** /new-request, /advanced-request and /smart-form; `?edit=<id>` opens a draft in the same form. */
export function RequestFormPage({ variant }: { variant: 'simple' | 'advanced' | 'smart' }) {
  const [params] = useSearchParams();
  const [, navigate] = useLocation();
  const editId = params.get('edit');
  const options = useRequestOptions();
  const draft = useRequestDetail(editId);
  const [round, setRound] = useState(0);
  const path = PATHS[variant];
  // The draft this page opened as editable: once it is submitted from here it is no longer
  // editable, and the form's own outcome (submitted, who decides next) must stay on screen.
  const [openedEditable, setOpenedEditable] = useState<string | null>(null);
  if (editId && draft.data?.id === editId && draft.data.actions.edit && openedEditable !== editId)
    setOpenedEditable(editId);

  const title = editId
    ? draft.data
      ? `Edit ${draft.data.reference}`
      : 'Edit request'
    : variant === 'advanced'
      ? 'Advanced Request'
      : variant === 'smart'
        ? 'Smart Request Form'
        : 'New Request';
  const description =
    variant === 'advanced'
      ? 'Line items with tax, cost allocation across departments, foreign currency, advances and recurring requests.'
      : variant === 'smart'
        ? "Describe the spend: the category, vendor and department are suggested from your organization's past requests, with the policy checks and budget impact as you type."
        : 'Ask for approval to spend: a purchase, a reimbursement or an advance.';

  let body;
  if (options.isLoading || (editId && draft.isLoading)) {
    body = (
      <div className="flex min-h-64 items-center justify-center">
        <Spinner label="Loading the form" />
      </div>
    );
  } else if (options.isError || !options.data) {
    body = <QueryError error={options.error} message="The form could not be loaded." onRetry={options.refetch} />;
  } else if (editId && (draft.isError || !draft.data)) {
    body = <QueryError error={draft.error} message="The request could not be loaded." onRetry={draft.refetch} />;
  } else if (editId && draft.data && !draft.data.actions.edit && openedEditable !== editId) {
    body = (
      <Alert variant="warning">
        <TriangleAlert aria-hidden="true" />
        <span>
          {draft.data.reference} can no longer be edited.{' '}
          <Link href={`/requests?id=${encodeURIComponent(draft.data.id)}`} className="font-medium underline">
            Open the request
          </Link>
        </span>
      </Alert>
    );
  } else {
    body = (
      <RequestForm
        key={`${editId ?? 'new'}-${round}`}
        variant={variant}
        options={options.data}
        draft={editId ? draft.data : undefined}
        onReset={() => {
          setRound((r) => r + 1);
          if (editId) navigate(path);
        }}
      />
    );
  }

  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader
        title={title}
        description={description}
        actions={
          !editId && (
            <Button variant="outline" asChild>
              <Link href={variant === 'advanced' ? '/new-request' : '/advanced-request'}>
                {variant === 'advanced' ? 'Simple form' : 'Advanced form'}
              </Link>
            </Button>
          )
        }
      />
      {!editId && <SiblingScreens />}
      {body}
    </div>
  );
}
