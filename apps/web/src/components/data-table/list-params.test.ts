import { describe, expect, it } from 'vitest';
import { buildExportUrl, buildListUrl, readListState, writeListState, type ListDefaults } from './list-params';

const defaults: ListDefaults = { pageSize: 25, sort: 'name', order: 'asc', filters: ['status', 'organizationId'] };

describe('list view in the address bar', () => {
  it('reads valid values and falls back to the defaults for the rest', () => {
    const state = readListState(
      new URLSearchParams('page=3&pageSize=50&sort=createdAt&order=desc&q=acme&status=active&other=1'),
      defaults,
    );
    expect(state).toEqual({
      page: 3,
      pageSize: 50,
      sort: 'createdAt',
      order: 'desc',
      q: 'acme',
      filters: { status: 'active' },
    });
    expect(readListState(new URLSearchParams('page=-1&pageSize=33&order=up'), defaults)).toEqual({
      page: 1,
      pageSize: 25,
      sort: 'name',
      order: 'asc',
      q: '',
      filters: {},
    });
  });

  it('writes only what differs from the defaults and keeps unrelated parameters', () => {
    const next = writeListState(
      new URLSearchParams('tab=people&page=4'),
      { page: 1, pageSize: 25, sort: 'name', order: 'desc', q: ' x ', filters: { status: 'blocked' } },
      defaults,
    );
    expect(next.toString()).toBe('tab=people&sort=name&order=desc&q=x&status=blocked');
  });

  it('namespaces parameters with a prefix', () => {
    const search = new URLSearchParams('people.page=2&page=7');
    expect(readListState(search, defaults, 'people.').page).toBe(2);
    expect(
      writeListState(
        search,
        { ...readListState(search, defaults, 'people.'), page: 3 },
        defaults,
        'people.',
      ).toString(),
    ).toBe('people.page=3&page=7');
  });
});

describe('request URLs', () => {
  const state = {
    page: 2,
    pageSize: 50,
    sort: 'name',
    order: 'desc' as const,
    q: 'acme',
    filters: { status: 'active', organizationId: undefined },
  };
  it('builds the list request of the protocol', () => {
    expect(buildListUrl('/api/vendors', state, { organizationId: 'o1', archived: false })).toBe(
      '/api/vendors?page=2&pageSize=50&sort=name&order=desc&q=acme&status=active&organizationId=o1&archived=false',
    );
  });
  it('builds the export request with the same sort, search and filters but no paging', () => {
    expect(buildExportUrl('/api/vendors', 'xlsx', state)).toBe(
      '/api/vendors/export?format=xlsx&sort=name&order=desc&q=acme&status=active',
    );
    expect(buildExportUrl('/api/vendors/?x=1', 'csv', { ...state, sort: undefined, q: '' })).toBe(
      '/api/vendors/export?x=1&format=csv&status=active',
    );
  });
});
