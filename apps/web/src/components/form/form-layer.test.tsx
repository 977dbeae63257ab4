import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { currencyCode, moneyAmount } from '@outlay/contracts/lists';
import { apiJson, configureApiClient } from '@/lib/api-client';
import { storeSession } from '@/lib/auth-storage';
import { sendJson, startTestServer } from '@/testing/test-server';
import {
  ConfirmDialog,
  FormDialog,
  FormFieldCheckbox,
  FormFieldMoney,
  FormFieldText,
  FormFieldTextarea,
  normalizeAmount,
  useStepUp,
  useVersionedEdit,
  useZodForm,
  withStepUp,
} from './index';

const vendorInput = z.object({
  name: z.string().trim().min(2, 'Enter the vendor name'),
  creditLimit: moneyAmount,
  currency: currencyCode,
  notes: z.string().max(20, 'Keep notes short').optional(),
  preferred: z.boolean(),
});

let reauthed = false;
const server = await startTestServer((req, res) => {
  if (req.url === '/api/vendors' && req.method === 'POST') {
    const body = JSON.parse(req.body) as { name: string };
    if (body.name === 'Acme')
      return sendJson(res, 409, { message: 'A vendor with this tax id already exists', code: 'CONFLICT' });
    return sendJson(res, 201, { id: 'v1', ...body });
  }
  if (req.url === '/api/auth/reauth') {
    const { password } = JSON.parse(req.body) as { password: string };
    if (password !== 'Meridian!2026')
      return sendJson(res, 400, { message: 'Incorrect password', code: 'VALIDATION_ERROR' });
    reauthed = true;
    return sendJson(res, 200, { message: 'Password confirmed', reauthUntil: new Date().toISOString() });
  }
  if (req.url === '/api/vendors/v7' && req.method === 'GET')
    return sendJson(res, 200, { id: 'v7', name: 'Saved elsewhere', version: 3 });
  if (req.url === '/api/vendors/v7' && req.method === 'PATCH') {
    if (req.headers['if-match'] !== '"3"') {
      return sendJson(res, 412, {
        message: 'This record was changed by someone else. Reload to see the latest version.',
        code: 'VERSION_CONFLICT',
      });
    }
    return sendJson(res, 200, { id: 'v7', ...JSON.parse(req.body), version: 4 });
  }
  if (req.url === '/api/auth/refresh')
    return sendJson(res, 200, { tokens: { accessToken: 'fresh', refreshToken: 'r2' } });
  if (req.url === '/api/users/u1/reset-password' && req.headers.authorization === 'Bearer stale') {
    return sendJson(res, 401, { message: 'Token expired', code: 'INVALID_TOKEN' });
  }
  if (req.url === '/api/users/u1/reset-password') {
    if (!reauthed)
      return sendJson(res, 403, { message: 'Please confirm your password to continue', code: 'reauth_required' });
    return sendJson(res, 200, { temporaryPassword: 'Temp-1234' });
  }
  sendJson(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
});
beforeAll(() => configureApiClient({ baseUrl: server.url, onSessionEnded: () => {} }));
afterAll(() => server.close());
beforeEach(() => {
  reauthed = false;
  server.requests.length = 0;
  storeSession({ accessToken: 'token-a', refreshToken: 'r' }, 'device-1');
});

function VendorDialog({ onSaved }: { onSaved: (v: unknown) => void }) {
  const [open, setOpen] = useState(true);
  const form = useZodForm(vendorInput, { name: '', creditLimit: '', currency: 'USD', notes: '', preferred: false });
  return (
    <>
      <p>{open ? 'open' : 'closed'}</p>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title="New vendor"
        description="Who the group pays."
        form={form}
        onSubmit={async (values) => onSaved(await apiJson('POST', '/api/vendors', values))}
      >
        <FormFieldText name="name" label="Name" required />
        <FormFieldMoney name="creditLimit" label="Credit limit" currency="USD" />
        <FormFieldText name="currency" label="Currency" />
        <FormFieldTextarea name="notes" label="Notes" />
        <FormFieldCheckbox name="preferred" label="Preferred vendor" />
      </FormDialog>
    </>
  );
}

describe('FormDialog', () => {
  it('shows the schema messages on the fields and focuses the first invalid one', async () => {
    render(<VendorDialog onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter the vendor name')).toBeInTheDocument();
    expect(screen.getByText('Enter an amount with at most two decimals')).toBeInTheDocument();
    const name = screen.getByLabelText(/Name/);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(name).toHaveFocus());
    expect(server.requests).toHaveLength(0);
  });

  it('shows the server message inline and stays open; saves the exact decimal string and closes', async () => {
    const saved = vi.fn();
    render(<VendorDialog onSaved={saved} />);
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Acme' } });
    const amount = screen.getByLabelText('Credit limit');
    fireEvent.change(amount, { target: { value: ' 1,234.50 ' } });
    fireEvent.blur(amount);
    expect(amount).toHaveValue('1234.50');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Preferred vendor' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A vendor with this tax id already exists');
    expect(screen.getByText('open')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Globex' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(saved).toHaveBeenCalled());
    expect(JSON.parse(server.requests.at(-1)!.body)).toEqual({
      name: 'Globex',
      creditLimit: '1234.50',
      currency: 'USD',
      notes: '',
      preferred: true,
    });
    expect(await screen.findByText('closed')).toBeInTheDocument();
  });
});

interface NamedRecord {
  id: string;
  name: string;
  version: number;
}
const nameInput = z.object({ name: z.string().min(2) });
const nameValues = (r: NamedRecord) => ({ name: r.name });

function EditNameDialog({ record }: { record: NamedRecord }) {
  const [open, setOpen] = useState(true);
  const form = useZodForm(nameInput, nameValues(record));
  const versioned = useVersionedEdit({
    record,
    form,
    load: () => apiJson<NamedRecord>('GET', '/api/vendors/v7'),
    toValues: nameValues,
  });
  return (
    <>
      <p>{open ? 'open' : 'closed'}</p>
      <FormDialog
        open={open}
        onOpenChange={setOpen}
        title="Edit vendor"
        form={form}
        onReload={versioned.reload}
        onSubmit={async (values) =>
          versioned.saved(
            await apiJson<NamedRecord>('PATCH', '/api/vendors/v7', values, { headers: versioned.headers() }),
          )
        }
      >
        <FormFieldText name="name" label="Name" required />
      </FormDialog>
    </>
  );
}

describe('versioned edits', () => {
  it('sends the loaded version; a 412 keeps the typed value and offers Reload, which loads the latest copy and version', async () => {
    render(<EditNameDialog record={{ id: 'v7', name: 'Opened with', version: 2 }} />);
    fireEvent.change(screen.getByLabelText(/Name/), { target: { value: 'Typed here' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This record was changed by someone else. Reload to see the latest version.');
    expect(server.requests.at(-1)!.headers['if-match']).toBe('"2"');
    expect(screen.getByLabelText(/Name/)).toHaveValue('Typed here');
    expect(screen.getByText('open')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.getByLabelText(/Name/)).toHaveValue('Saved elsewhere'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('closed')).toBeInTheDocument();
    expect(server.requests.at(-1)!.headers['if-match']).toBe('"3"');
  });
});

describe('ConfirmDialog', () => {
  it('requires a reason and passes it on', async () => {
    const onConfirm = vi.fn();
    const onOpenChange = vi.fn();
    render(
      <ConfirmDialog
        open
        onOpenChange={onOpenChange}
        title="Block Acme?"
        confirmLabel="Block"
        reason
        onConfirm={onConfirm}
      />,
    );
    expect(screen.getByRole('alertdialog', { name: 'Block Acme?' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    expect(await screen.findByText('Enter a reason')).toBeInTheDocument();
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText(/Reason/), { target: { value: '  Duplicate vendor ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(onConfirm).toHaveBeenCalledWith('Duplicate vendor'));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
  });

  it('shows a failure inline', async () => {
    render(
      <ConfirmDialog
        open
        onOpenChange={vi.fn()}
        title="Delete?"
        onConfirm={() => apiJson('POST', '/api/vendors', { name: 'Acme' })}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('A vendor with this tax id already exists');
  });
});

function ResetPassword() {
  const stepUp = useStepUp();
  const [result, setResult] = useState('');
  const reset = stepUp.withStepUp(() =>
    apiJson<{ temporaryPassword: string }>('POST', '/api/users/u1/reset-password', {}),
  );
  return (
    <>
      <button
        type="button"
        onClick={() =>
          reset().then(
            (r) => setResult(r.temporaryPassword),
            (error: Error) => setResult(`failed: ${error.message}`),
          )
        }
      >
        Reset password
      </button>
      <output>{result}</output>
      {stepUp.dialog}
    </>
  );
}

describe('step-up', () => {
  it('asks for the password on reauth_required, confirms it, and retries once', async () => {
    render(<ResetPassword />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Confirm your password' });
    expect(dialog).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect password');

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Meridian!2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Temp-1234')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/users/u1/reset-password',
      '/api/auth/reauth',
      '/api/auth/reauth',
      '/api/users/u1/reset-password',
    ]);
    expect(server.requests[2]!.headers.authorization).toBe('Bearer token-a');
  });

  it('still asks for the password when the refusal comes after a token refresh', async () => {
    storeSession({ accessToken: 'stale', refreshToken: 'r' }, 'device-1');
    render(<ResetPassword />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByRole('dialog', { name: 'Confirm your password' });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Meridian!2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText('Temp-1234')).toBeInTheDocument();
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer fresh');
  });

  it('fails with the original error when the prompt is cancelled', async () => {
    render(<ResetPassword />);
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await screen.findByRole('dialog', { name: 'Confirm your password' });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('failed: 403: Please confirm your password to continue')).toBeInTheDocument();
    expect(server.requests).toHaveLength(1);
  });

  it('withStepUp retries only once and passes other errors through', async () => {
    const refusal = Object.assign(new Error('403'), {});
    const { ApiError } = await import('@/lib/api-error');
    const reauth = new ApiError(403, 'Please confirm', { code: 'reauth_required' });
    const fn = vi.fn().mockRejectedValue(reauth);
    const ask = vi.fn().mockResolvedValue(true);
    await expect(withStepUp(fn, ask)()).rejects.toBe(reauth);
    expect(fn).toHaveBeenCalledTimes(2);
    expect(ask).toHaveBeenCalledTimes(1);
    const other = vi.fn().mockRejectedValue(refusal);
    await expect(withStepUp(other, ask)()).rejects.toBe(refusal);
    expect(ask).toHaveBeenCalledTimes(1);
  });
});

describe('normalizeAmount', () => {
  it('only removes spaces and thousands separators', () => {
    expect(normalizeAmount(' 12 ')).toBe('12');
    expect(normalizeAmount('1,234,567.89')).toBe('1234567.89');
    expect(normalizeAmount('12,5')).toBe('12,5');
  });
});
