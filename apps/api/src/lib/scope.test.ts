import { PgDialect, type PgColumn } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { spendingRequests } from '@outlay/db';
import type { Scope } from '@outlay/contracts';
import type { AuthInfo } from './context.ts';
import { scopeCondition } from './scope.ts';

const dialect = new PgDialect();
const sqlOf = (condition: SQL | undefined) => (condition ? dialect.sqlToQuery(condition).sql : undefined);

function authWith(scope: Scope): AuthInfo {
  return {
    userId: '00000000-0000-4000-8000-000000000001',
    sessionId: 's',
    deviceId: 'd',
    role: 'requester',
    scope,
    permissions: ['requests.read.scope'],
    grants: { 'requests.read.scope': scope },
    customRoleId: null,
    organizationId: '00000000-0000-4000-8000-0000000000aa',
    departmentId: '00000000-0000-4000-8000-0000000000bb',
    reauthAt: new Date(),
  };
}

describe('scopeCondition', () => {
  const columns = {
    organizationId: spendingRequests.organizationId,
    departmentId: spendingRequests.departmentId,
    ownerId: spendingRequests.requesterId,
  };

  it('limits each scope by its column and leaves only the group scope unrestricted', () => {
    expect(scopeCondition(authWith('group'), 'requests.read.scope', columns)).toBeUndefined();
    expect(sqlOf(scopeCondition(authWith('organization'), 'requests.read.scope', columns))).toBe(
      '"spending_requests"."organization_id" = $1',
    );
    expect(sqlOf(scopeCondition(authWith('department'), 'requests.read.scope', columns))).toBe(
      '"spending_requests"."department_id" = $1',
    );
    expect(sqlOf(scopeCondition(authWith('own'), 'requests.read.scope', columns))).toBe(
      '"spending_requests"."requester_id" = $1',
    );
  });

  it('fails closed when the organization column is missing: the type requires it, and at run time it throws', () => {
    const missing = { organizationId: undefined as unknown as PgColumn };
    for (const scope of ['organization', 'department', 'own'] as const) {
      expect(() => scopeCondition(authWith(scope), 'requests.read.scope', missing)).toThrow(/organization column/);
    }
    // @ts-expect-error a scope without the organization column would restrict nothing
    expect(() => scopeCondition(authWith('organization'), 'requests.read.scope', {})).toThrow(/organization column/);
  });
});
