import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Vendor } from '@outlay/contracts/vendors';
import { configureApiClient } from '@/lib/api-client';
import { storeSession } from '@/lib/auth-storage';
import { sendJson, startTestServer } from '@/testing/test-server';
import { EditVendorDialog } from './vendor-form-dialog';

const VENDOR: Vendor = {
  id: 'v1',
  organizationId: 'o1',
  organizationName: 'Meridian Foods',
  name: 'Bristol Print Works',
  taxId: 'GB-PRT-7781',
  contactName: 'Jane Miller',
  email: 'ap@bristolprint.example',
  phone: null,
  address: null,
  paymentTermsDays: 30,
  currency: 'GBP',
  bankAccountMasked: '•••• 6819',
  pendingBankChange: {
    bankAccountMasked: '•••• 3459',
    requestedById: 'u-carla',
    requestedByName: 'Carla Ortiz',
    requestedAt: '2026-03-02T10:15:00.000Z',
  },
  status: 'active',
  intercompanyOrganizationId: null,
  version: 4,
  spendToDate: '0.00',
  openBalance: '0.00',
  spendCurrency: 'GBP',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-03-02T10:15:00.000Z',
};

let me = 'u-adam';
let reauthed = false;
const server = await startTestServer((req, res) => {
  if (req.url === '/api/auth/user')
    return sendJson(res, 200, {
      id: me,
      username: me,
      firstName: 'Test',
      lastName: 'User',
      permissions: ['vendors.manage'],
    });
  if (req.url === '/api/auth/reauth') {
    reauthed = true;
    return sendJson(res, 200, { message: 'Password confirmed', reauthUntil: new Date().toISOString() });
  }
  if (req.url === '/api/vendors/v1/bank-change/confirm' && req.method === 'POST') {
    if (!reauthed)
      return sendJson(res, 403, { message: 'Please confirm your password to continue', code: 'reauth_required' });
    return sendJson(res, 200, {
      ...VENDOR,
      bankAccountMasked: '•••• 3459',
      pendingBankChange: null,
      version: 5,
      lastStatusChange: null,
    });
  }
  if (req.url === '/api/vendors/v1/bank-change' && req.method === 'DELETE') {
    return sendJson(res, 200, { ...VENDOR, pendingBankChange: null, version: 5, lastStatusChange: null });
  }
  sendJson(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
});
beforeAll(() => configureApiClient({ baseUrl: server.url, onSessionEnded: () => {} }));
afterAll(() => server.close());
beforeEach(() => {
  me = 'u-adam';
  reauthed = false;
  server.requests.length = 0;
  storeSession({ accessToken: 'token-a', refreshToken: 'r' }, 'device-1');
});

function renderEdit(onOpenChange = vi.fn()) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false }, queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <EditVendorDialog open onOpenChange={onOpenChange} vendor={VENDOR} />
    </QueryClientProvider>,
  );
  return onOpenChange;
}

const sent = () => server.requests.filter((r) => r.url.startsWith('/api/vendors')).map((r) => `${r.method} ${r.url}`);

describe('a pending bank account change in the vendor editor', () => {
  it('is shown with who asked, and confirming asks for the password, retries, and closes without saving the form', async () => {
    const onOpenChange = renderEdit();
    const notice = await screen.findByTestId('pending-bank-change');
    expect(notice).toHaveTextContent(
      'Bank account change waiting for confirmation: •••• 3459, requested by Carla Ortiz on',
    );
    expect(notice).toHaveTextContent('Payments go to •••• 6819 until someone else who manages vendors confirms it.');
    const confirm = within(notice).getByRole('button', { name: 'Confirm change' });
    await waitFor(() => expect(server.requests.some((r) => r.url === '/api/auth/user')).toBe(true));
    expect(confirm).toBeEnabled();

    fireEvent.click(confirm);
    await screen.findByRole('dialog', { name: 'Confirm your password' });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Meridian!2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    // The password prompt's submit never reached the edit form: no PATCH of the vendor.
    expect(sent()).toEqual(['POST /api/vendors/v1/bank-change/confirm', 'POST /api/vendors/v1/bank-change/confirm']);
  });

  it('is not confirmable by the one who asked, who may still discard it', async () => {
    me = 'u-carla';
    const onOpenChange = renderEdit();
    const notice = await screen.findByTestId('pending-bank-change');
    await waitFor(() => expect(within(notice).getByRole('button', { name: 'Confirm change' })).toBeDisabled());
    expect(notice).toHaveTextContent('You asked for this change, so someone else must confirm it.');
    expect(within(notice).getByRole('button', { name: 'Confirm change' })).toHaveAccessibleDescription(
      'You asked for this change, so someone else must confirm it.',
    );

    fireEvent.click(within(notice).getByRole('button', { name: 'Discard change' }));
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(sent()).toEqual(['DELETE /api/vendors/v1/bank-change']);
  });
});
