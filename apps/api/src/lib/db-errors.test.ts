import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, isUniqueViolation, uniqueViolationOf } from './db-errors.ts';

const pgError = (code: string, message = 'server says no') =>
  Object.assign(new Error(message), { code, severity: 'FATAL' });
const wrapped = (cause: unknown) => new DrizzleQueryError('select 1', [], cause as Error);

describe('databaseUnavailable', () => {
  it.each([
    ['57P01', 'connection'],
    ['57P02', 'connection'],
    ['57P03', 'connection'],
    ['08006', 'connection'],
    ['08P01', 'connection'],
    ['53300', 'busy'],
    ['55P03', 'busy'],
    ['57014', 'busy'],
  ])('reads SQLSTATE %s inside a DrizzleQueryError as %s', (code, kind) => {
    const verdict = databaseUnavailable(wrapped(pgError(code)));
    expect(verdict?.kind).toBe(kind);
    expect(verdict?.retryAfter).toBeGreaterThan(0);
    expect(verdict?.message).toMatch(/database/i);
  });

  it('reads node-postgres and pg-pool errors that carry no code', () => {
    expect(databaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toMatchObject({
      kind: 'connection',
      message: 'The database connection was lost; please retry.',
    });
    expect(
      databaseUnavailable(wrapped(new Error('Client has encountered a connection error and is not queryable')))?.kind,
    ).toBe('connection');
    expect(databaseUnavailable(new Error('timeout exceeded when trying to connect'))).toMatchObject({
      kind: 'busy',
      message: 'The database is busy; please retry shortly.',
    });
  });

  it('reads a refused connection, also when Node reports one per address tried', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    expect(databaseUnavailable(refused('127.0.0.1:5432'))?.kind).toBe('connection');
    expect(databaseUnavailable(new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')]))?.kind).toBe(
      'connection',
    );
  });

  it('leaves every other error alone: constraint violations, bad input, bugs', () => {
    expect(databaseUnavailable(wrapped(pgError('23505', 'duplicate key')))).toBeNull();
    expect(databaseUnavailable(wrapped(pgError('22P02', 'invalid input syntax')))).toBeNull();
    expect(databaseUnavailable(new TypeError('x is undefined'))).toBeNull();
    expect(databaseUnavailable('a string')).toBeNull();
    expect(databaseUnavailable(null)).toBeNull();
  });

  it('stops on a cause cycle', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    const b = new Error('b', { cause: a });
    a.cause = b;
    expect(databaseUnavailable(a)).toBeNull();
  });
});

describe('uniqueViolationOf', () => {
  it('names the broken unique constraint, also under the wrapper drizzle puts around it', () => {
    const driver = Object.assign(new Error('duplicate key value violates unique constraint "vendors_tax_id_idx"'), {
      code: '23505',
      constraint: 'vendors_tax_id_idx',
    });
    expect(uniqueViolationOf(driver)).toEqual({ constraint: 'vendors_tax_id_idx' });
    expect(uniqueViolationOf(new DrizzleQueryError('insert into vendors …', [], driver))).toEqual({
      constraint: 'vendors_tax_id_idx',
    });
    expect(uniqueViolationOf(Object.assign(new Error('duplicate'), { code: '23505' }))).toEqual({
      constraint: 'unique',
    });
  });

  it('is null for every other error', () => {
    expect(uniqueViolationOf(pgError('23503'))).toBeNull();
    expect(uniqueViolationOf(new Error('boom'))).toBeNull();
    expect(uniqueViolationOf(null)).toBeNull();
    expect(isUniqueViolation(pgError('23505'))).toBe(true);
    expect(isUniqueViolation(pgError('23514'))).toBe(false);
  });
});
