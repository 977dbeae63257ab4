import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { storeSession } from '@/lib/auth-storage';
import { sendJson, startTestServer } from '@/testing/test-server';
import { DataTable, DataTableFilterSelect, useListQuery, type DataTableColumn, type DataTableProps } from './index';

interface Vendor {
  id: string;
  name: string;
  status: string;
  spend: string;
}

const ALL: Vendor[] = Array.from({ length: 32 }, (_, i) => ({
  id: `v${i + 1}`,
  name: `Vendor ${String(i + 1).padStart(2, '0')}`,
  status: i % 3 === 0 ? 'blocked' : 'active',
  spend: `${(i + 1) * 100}.50`,
}));

let mode: 'ok' | 'error' | 'empty' | 'capped' = 'ok';
const server = await startTestServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  if (url.pathname === '/api/vendors/export') {
    res.writeHead(200, {
      'Content-Type': 'text/csv',
      'Content-Disposition': 'attachment; filename="vendors-2026.csv"',
    });
    res.end('name\nVendor 01\n');
    return;
  }
  if (mode === 'error') return sendJson(res, 500, { message: 'Database unavailable', code: 'INTERNAL' });
  if (mode === 'empty') return sendJson(res, 200, { items: [], total: 0, page: 1, pageSize: 10 });
  const page = Number(url.searchParams.get('page') ?? 1);
  const pageSize = Number(url.searchParams.get('pageSize') ?? 25);
  const q = url.searchParams.get('q')?.toLowerCase();
  const status = url.searchParams.get('status');
  let rows = ALL.filter((v) => (!q || v.name.toLowerCase().includes(q)) && (!status || v.status === status));
  if (url.searchParams.get('sort') === 'name' && url.searchParams.get('order') === 'desc') rows = [...rows].reverse();
  if (mode === 'capped') {
    // A keyset list that counts at most 10 rows: a cursor names the offset it reads on from.
    const cursor = url.searchParams.get('cursor');
    const from = cursor ? Number(cursor.slice(1)) : (page - 1) * pageSize;
    const items = rows.slice(from, from + pageSize);
    const nextCursor = from + pageSize < rows.length ? `c${from + pageSize}` : null;
    return sendJson(res, 200, {
      items,
      total: Math.min(rows.length, 10),
      totalIsEstimate: rows.length > 10,
      page,
      pageSize,
      nextCursor,
    });
  }
  sendJson(res, 200, { items: rows.slice((page - 1) * pageSize, page * pageSize), total: rows.length, page, pageSize });
});

beforeAll(() => configureApiClient({ baseUrl: server.url, onSessionEnded: () => {} }));
afterAll(() => server.close());
beforeEach(() => {
  mode = 'ok';
  server.requests.length = 0;
  window.history.replaceState(null, '', '/vendors');
  storeSession({ accessToken: 'token-a', refreshToken: 'r' }, 'device-1');
});

const columns: DataTableColumn<Vendor>[] = [
  { id: 'name', header: 'Name', sortable: true },
  { id: 'status', header: 'Status' },
  { id: 'spend', header: 'Spend', align: 'right' },
];

function Vendors(props: Partial<DataTableProps<Vendor>>) {
  const query = useListQuery<Vendor>({ url: '/api/vendors', filters: ['status'], defaultSort: 'name', pageSize: 10 });
  return (
    <DataTable
      label="Vendors"
      columns={columns}
      query={query}
      toolbar={
        <DataTableFilterSelect
          query={query}
          name="status"
          label="Status"
          options={[
            { value: 'active', label: 'Active' },
            { value: 'blocked', label: 'Blocked' },
          ]}
        />
      }
      {...props}
    />
  );
}

function renderTable(ui: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{ui}</QueryClientProvider>);
}

const listRequests = () => server.requests.filter((r) => r.url.startsWith('/api/vendors?'));
const lastListUrl = () => new URL(listRequests().at(-1)!.url, 'http://x');

describe('DataTable over the list protocol', () => {
  it('loads rows with the session headers and shows the range', async () => {
    renderTable(<Vendors />);
    expect(await screen.findByText('Vendor 01')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Vendors' })).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(11); // header + 10
    expect(screen.getByText('1–10 of 32')).toBeInTheDocument();
    const sent = listRequests()[0]!;
    expect(sent.url).toBe('/api/vendors?page=1&pageSize=10&sort=name&order=asc');
    expect(sent.headers.authorization).toBe('Bearer token-a');
    expect(sent.headers['x-device-id']).toBe('device-1');
  });

  it('sorts from the header button (aria-sort) and pages, keeping the view in the address bar', async () => {
    renderTable(<Vendors />);
    await screen.findByText('Vendor 01');
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).toHaveAttribute('aria-sort', 'ascending');

    fireEvent.click(within(header).getByRole('button'));
    expect(await screen.findByText('Vendor 32')).toBeInTheDocument();
    expect(lastListUrl().searchParams.get('order')).toBe('desc');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    expect(window.location.search).toContain('order=desc');
    expect(window.location.pathname).toBe('/vendors');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(lastListUrl().searchParams.get('page')).toBe('2'));
    expect(await screen.findByText('11–20 of 32')).toBeInTheDocument();
    expect(window.location.search).toContain('page=2');

    fireEvent.click(screen.getByRole('button', { name: 'Last page' }));
    expect(await screen.findByText('31–32 of 32')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();
  });

  it('pages a large list by its cursors past a capped count, and says the total is at least that', async () => {
    mode = 'capped';
    renderTable(<Vendors />);
    expect(await screen.findByText('1–10 of 10+')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Last page' })).toBeDisabled();
    for (const [page, first, label] of [
      ['2', 'Vendor 11', '11–20 of 20+'],
      ['3', 'Vendor 21', '21–30 of 30+'],
      ['4', 'Vendor 31', '31–32 of 32+'],
    ] as const) {
      fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
      expect(await screen.findByText(first)).toBeInTheDocument();
      expect(screen.getByText(label)).toBeInTheDocument();
      expect(lastListUrl().searchParams.get('page')).toBe(page);
      expect(lastListUrl().searchParams.get('cursor')).toBe(`c${(Number(page) - 1) * 10}`);
    }
    expect(screen.getByText('Vendor 32')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    // A new sort is a new view: its first page is read without a cursor.
    fireEvent.click(within(screen.getByRole('columnheader', { name: /Name/ })).getByRole('button'));
    await waitFor(() => expect(lastListUrl().searchParams.get('order')).toBe('desc'));
    expect(lastListUrl().searchParams.get('cursor')).toBeNull();
  });

  it('opens the view named in the address bar', async () => {
    window.history.replaceState(null, '', '/vendors?page=2&status=blocked&q=vendor');
    renderTable(<Vendors />);
    expect(await screen.findByText('11–11 of 11')).toBeInTheDocument(); // 11 blocked vendors, 10 a page
    const url = lastListUrl();
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.get('status')).toBe('blocked');
    expect(url.searchParams.get('q')).toBe('vendor');
    expect(screen.getByRole('searchbox', { name: 'Search vendors' })).toHaveValue('vendor');
  });

  it('debounces the search and goes back to page 1', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      window.history.replaceState(null, '', '/vendors?page=2');
      renderTable(<Vendors />);
      await screen.findByText('Vendor 11');
      fireEvent.change(screen.getByRole('searchbox', { name: 'Search vendors' }), { target: { value: 'Vendor 3' } });
      const before = listRequests().length;
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(listRequests()).toHaveLength(before);
      await act(() => vi.advanceTimersByTimeAsync(300));
      await waitFor(() => expect(lastListUrl().searchParams.get('q')).toBe('Vendor 3'));
      expect(lastListUrl().searchParams.get('page')).toBe('1');
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the filtered empty state with Clear filters, and the custom empty node otherwise', async () => {
    window.history.replaceState(null, '', '/vendors?q=nothing-matches');
    renderTable(<Vendors empty={<p>Add your first vendor</p>} />);
    expect(await screen.findByText('No vendors match your filters')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(await screen.findByText('Vendor 01')).toBeInTheDocument();
    expect(lastListUrl().searchParams.has('q')).toBe(false);
    expect(screen.getByRole('searchbox', { name: 'Search vendors' })).toHaveValue('');
  });

  it('shows the custom empty node when nothing is filtered', async () => {
    mode = 'empty';
    renderTable(<Vendors empty={<p>Add your first vendor</p>} />);
    expect(await screen.findByText('Add your first vendor')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('shows the server message and retries on an error', async () => {
    mode = 'error';
    renderTable(<Vendors />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Database unavailable');
    mode = 'ok';
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Vendor 01')).toBeInTheDocument();
  });

  it('exports the same sort, search and filters with the auth headers', async () => {
    window.history.replaceState(null, '', '/vendors?status=active&q=ven&sort=name&order=desc');
    const createObjectURL = vi.fn(() => 'blob:export');
    const revokeObjectURL = vi.fn();
    Object.assign(URL, { createObjectURL, revokeObjectURL });
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderTable(<Vendors />);
    await screen.findByText('Vendor 32');
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const sent = server.requests.find((r) => r.url.startsWith('/api/vendors/export'))!;
    const url = new URL(sent.url, 'http://x');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'csv',
      sort: 'name',
      order: 'desc',
      q: 'ven',
      status: 'active',
    });
    expect(sent.headers.authorization).toBe('Bearer token-a');
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toBe('vendors-2026.csv');
    expect(createObjectURL).toHaveBeenCalled();
    click.mockRestore();
  });

  it('hides a column from the Columns menu and remembers the choice', async () => {
    const { unmount } = renderTable(<Vendors />);
    await screen.findByText('Vendor 01');
    expect(screen.getByRole('columnheader', { name: 'Spend' })).toBeInTheDocument();
    fireEvent.keyDown(screen.getByRole('button', { name: 'Columns' }), { key: 'Enter' });
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: 'Spend' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: 'Spend' })).not.toBeInTheDocument());
    expect(screen.queryByText('100.50')).not.toBeInTheDocument();
    unmount();
    renderTable(<Vendors />);
    await screen.findByText('Vendor 01');
    expect(screen.queryByRole('columnheader', { name: 'Spend' })).not.toBeInTheDocument();
  });

  it('moves to the last page when the page asked for no longer exists', async () => {
    window.history.replaceState(null, '', '/vendors?page=9');
    renderTable(<Vendors />);
    expect(await screen.findByText('31–32 of 32')).toBeInTheDocument();
    expect(window.location.search).toContain('page=4');
  });

  it('has no axe violations with rows, selection and actions', async () => {
    const { default: axe } = await import('axe-core');
    const { container } = renderTable(
      <Vendors
        enableSelection
        rowActions={(v) => (
          <button type="button" aria-label={`Edit ${v.name}`}>
            Edit
          </button>
        )}
      />,
    );
    await screen.findByText('Vendor 01');
    const result = await axe.run(container, {
      rules: { 'color-contrast': { enabled: false }, region: { enabled: false } },
    });
    expect(result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`)).toEqual([]);
  });

  it('selects rows for bulk actions', async () => {
    const bulk = vi.fn((rows: Vendor[]) => <button type="button">Block {rows.length}</button>);
    renderTable(<Vendors enableSelection bulkActions={bulk} />);
    await screen.findByText('Vendor 01');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select row 3' }));
    expect(screen.getByText('2 selected')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Block 2' })).toBeInTheDocument();
    expect(bulk.mock.lastCall?.[0].map((v) => v.id)).toEqual(['v1', 'v3']);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all rows on this page' }));
    expect(screen.getByText('10 selected')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(screen.queryByText(/selected$/)).not.toBeInTheDocument();
  });
});
