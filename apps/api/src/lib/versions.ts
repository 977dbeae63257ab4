import { eq, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES, errorResponse } from '@outlay/contracts';
import { AppError } from './app-error.ts';

/**
 * Optimistic concurrency for editable records (RFC 9110 §13.1.1): the ETag is the record's
 * version, a write may name the version it was based on in If-Match, and the UPDATE only
 * applies while the row still has that version, so of two writers with the same version one
 * wins and the other gets 412. A write without If-Match is unconditional, for other tools.
 */

/** For a route's `response` schema, so the refusal shows in the OpenAPI document. */
export const versionConflictResponse = { 412: errorResponse };

export function versionConflict(): AppError {
  return new AppError('VERSION_CONFLICT', { message: MESSAGES.versionConflict });
}

const ENTITY_TAG = /^(?:W\/)?"([^"]*)"$/;

/**
 * The version If-Match names, or undefined when there is no precondition (absent or `*`).
 * A tag that is not a version we ever issued can never match, so it is a conflict, not a 400.
 */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  const raw = (Array.isArray(header) ? header.join(',') : header)?.trim();
  if (!raw || raw === '*') return undefined;
  const versions = raw.split(',').map((tag) => {
    const m = ENTITY_TAG.exec(tag.trim());
    const n = m && /^\d{1,9}$/.test(m[1]!) ? Number(m[1]) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  });
  // Several tags are legal but a record has one version at a time: only a list naming one
  // version can match; anything else is refused rather than guessed.
  const distinct = new Set(versions);
  if (distinct.size !== 1 || versions[0] === null) throw versionConflict();
  return versions[0];
}

export function expectedVersion(request: FastifyRequest): number | undefined {
  return parseIfMatch(request.headers['if-match']);
}

export function etag(version: number): string {
  return `"${version}"`;
}

/** Sets the ETag of a record answer and passes the body through. */
export function withEtag<T extends { version: number }>(reply: FastifyReply, body: T): T {
  reply.header('etag', etag(body.version));
  return body;
}

/** `version = version + 1`, for the SET of every write that changes the record. */
export function nextVersion(column: PgColumn): SQL {
  return sql`${column} + 1`;
}

/** The WHERE part of a conditional write; undefined (no condition) when the caller named no version. */
export function versionIs(column: PgColumn, expected: number | undefined): SQL | undefined {
  return expected === undefined ? undefined : eq(column, expected);
}

/** For services that lock the row first: refuse when the locked row is not the version the caller saw. */
export function assertVersion(current: number, expected: number | undefined): void {
  if (expected !== undefined && current !== expected) throw versionConflict();
}
