import { describe, expect, it } from 'vitest';
import { PERMISSIONS, ROLE_GRANTS, grantsFor } from './permissions.ts';
import { ROLES } from './roles.ts';

describe('docs/product.md §5 role grants', () => {
  it('gives the owner everything at group scope', () => {
    expect([...ROLE_GRANTS.owner.permissions].sort()).toEqual([...PERMISSIONS].sort());
    expect(ROLE_GRANTS.owner.scope).toBe('group');
  });

  it('gives admin everything but payroll approval', () => {
    expect(ROLE_GRANTS.admin.permissions).not.toContain('payroll.approve');
    expect(ROLE_GRANTS.admin.permissions.length).toBe(PERMISSIONS.length - 1);
  });

  it('gives cfo finance, reports, approvals and audit read — not user or role administration', () => {
    for (const p of ['budgets.manage', 'payroll.approve', 'reports.read', 'approvals.act', 'audit.read'] as const) {
      expect(ROLE_GRANTS.cfo.permissions).toContain(p);
    }
    for (const p of ['users.manage', 'roles.manage', 'security.manage'] as const)
      expect(ROLE_GRANTS.cfo.permissions).not.toContain(p);
  });

  it('scopes subsidiary roles to their organization and department roles to their department', () => {
    for (const r of [
      'subsidiary_ceo',
      'subsidiary_coo',
      'subsidiary_finance_manager',
      'subsidiary_technical',
      'subsidiary_supply_chain',
    ] as const) {
      expect(ROLE_GRANTS[r].scope).toBe('organization');
      expect(ROLE_GRANTS[r].permissions).toContain('approvals.act');
    }
    expect(ROLE_GRANTS.manager.scope).toBe('department');
    expect(ROLE_GRANTS.department_head.scope).toBe('department');
    expect(ROLE_GRANTS.group_cfo.permissions).toEqual(
      expect.arrayContaining(['budgets.approve_overrun', 'payroll.approve']),
    );
    expect(ROLE_GRANTS.group_ceo.permissions).not.toContain('payroll.approve');
  });

  it('lets executives and department heads announce within their scope, and nobody below', () => {
    for (const r of ['owner', 'admin', 'cfo', 'group_ceo', 'group_cfo', 'group_coo'] as const)
      expect(grantsFor(r)['communications.announce'], r).toBe('group');
    for (const r of ['subsidiary_ceo', 'subsidiary_coo'] as const)
      expect(grantsFor(r)['communications.announce'], r).toBe('organization');
    expect(grantsFor('department_head')['communications.announce']).toBe('department');
    for (const r of ['manager', 'requester', 'user', 'accounts', 'subsidiary_finance_manager'] as const)
      expect(grantsFor(r)['communications.announce'], r).toBeUndefined();
  });

  it('limits requesters and users to their own things', () => {
    for (const r of ['requester', 'user'] as const) {
      expect(ROLE_GRANTS[r].scope).toBe('own');
      expect(ROLE_GRANTS[r].permissions).not.toContain('approvals.act');
    }
  });

  it('gives every role a grant entry', () => {
    for (const role of ROLES) expect(ROLE_GRANTS[role]).toBeDefined();
  });

  it('merges a custom role at the broader scope and ignores unknown permissions', () => {
    const g = grantsFor('requester', {
      permissions: ['audit.read', 'requests.create', 'nonsense.perm'],
      scope: 'organization',
    });
    expect(g['audit.read']).toBe('organization');
    expect(g['requests.create']).toBe('organization');
    expect(g['approvals.act']).toBeUndefined();
    expect(Object.keys(g)).not.toContain('nonsense.perm');
    expect(grantsFor('owner', { permissions: ['audit.read'], scope: 'own' })['audit.read']).toBe('group');
  });
});

describe('nobody grants more than they hold (docs/decisions/005)', () => {
  it('names what the caller lacks, by permission and by scope', async () => {
    const { missingGrants, canGrantRole, grantsFor: g } = await import('./permissions.ts');
    expect(missingGrants(g('admin'), ['audit.read', 'payroll.approve'], 'group')).toEqual(['payroll.approve']);
    expect(missingGrants(g('subsidiary_finance_manager'), ['budgets.manage'], 'group')).toEqual(['budgets.manage']);
    expect(missingGrants(g('subsidiary_finance_manager'), ['budgets.manage'], 'organization')).toEqual([]);
    expect(canGrantRole(g('owner'), 'owner')).toBe(true);
    expect(canGrantRole(g('admin'), 'owner')).toBe(false);
    expect(canGrantRole(g('admin'), 'cfo')).toBe(false);
    expect(canGrantRole(g('admin'), 'requester')).toBe(true);
    expect(canGrantRole(g('manager'), 'subsidiary_ceo')).toBe(false);
  });
});
