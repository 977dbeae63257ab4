import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PolicyOptions } from '@outlay/contracts/policies';
import { configureApiClient } from '@/lib/api-client';
import { storeSession } from '@/lib/auth-storage';
import { sendJson, startTestServer } from '@/testing/test-server';
import { RuleDialog } from './rule-dialog';

const server = await startTestServer((req, res) => {
  if (req.url === '/api/policies' && req.method === 'POST')
    return sendJson(res, 201, { id: 'p1', version: 1, ...JSON.parse(req.body) });
  sendJson(res, 404, { message: 'Not found', code: 'NOT_FOUND' });
});
beforeAll(() => configureApiClient({ baseUrl: server.url, onSessionEnded: () => {} }));
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  storeSession({ accessToken: 'token-a', refreshToken: 'r' }, 'device-1');
});

const OPTIONS: PolicyOptions = { organizations: [], categories: [], vendors: [], departments: [] };

function renderDialog() {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <RuleDialog open onOpenChange={() => {}} rule={null} options={OPTIONS} />
    </QueryClientProvider>,
  );
}

describe('RuleDialog', () => {
  it("checks the rule with the contract's schema before sending: messages under the fields, no request", async () => {
    renderDialog();
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'ab' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));

    expect(await screen.findByText('The name must be at least 3 characters')).toBeInTheDocument();
    expect(screen.getByText('Enter the limit')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Meals limit' } });
    fireEvent.change(screen.getByLabelText('Limit per request'), { target: { value: '1,150.00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));

    await waitFor(() => expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1));
    const body = JSON.parse(server.requests.find((r) => r.method === 'POST')!.body) as {
      name: string;
      params: { limit: string };
      kind: string;
    };
    expect(body).toMatchObject({ name: 'Meals limit', kind: 'category_limit_request', params: { limit: '1150.00' } });
  });
});
