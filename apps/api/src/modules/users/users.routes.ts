import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ROLE_LABELS,
  USER_IMPORT_MAX_CHARS,
  bulkUserIdsInput,
  bulkUserResult,
  createUserInput,
  errorResponse,
  forcePasswordChangeResponse,
  idParam,
  passwordStatusExportQuery,
  passwordStatusList,
  passwordStatusQuery,
  revokeSessionsResponse,
  sessionExportQuery,
  sessionList,
  sessionListQuery,
  temporaryPasswordResponse,
  updateUserInput,
  userExportQuery,
  userImportInput,
  userImportResponse,
  userItem,
  userList,
  userListQuery,
  userOptions,
  type PasswordStatusItem,
  type SessionItem,
  type UserItem,
} from '@outlay/contracts';
import { contextOf, type AppDeps } from '../../lib/context.ts';
import { exportRoute, getVersionedRoute, listRoute } from '../../lib/list-routes.ts';
import type { ExportColumn } from '../../lib/export.ts';
import { expectedVersion, versionConflictResponse, withEtag } from '../../lib/versions.ts';
import { exportSessions, listSessionsPage, revokeAllOfUser, revokeOne } from './users.sessions.ts';
import { importUsers } from './users.import.ts';
import { exportPasswordStatus, forcePasswordChange, listPasswordStatus, resetPassword } from './users.passwords.ts';
import {
  bulkSetStatus,
  createUser,
  exportUsers,
  getUser,
  listUsersPage,
  setUserStatus,
  updateUser,
  userOptions as loadOptions,
} from './users.service.ts';

const access = { access: 'users.manage' as const };
// The user screens' reads: also for a settings reader, who changes nothing.
const read = { access: ['users.manage', 'settings.read'] as const };
const tags = ['users'];
const refusals = { 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse };
const when = (d: string | null) => (d ? d.replace('T', ' ').slice(0, 16) : '');

// Headers an import understands, so an export can be edited and imported again.
const USER_COLUMNS: ExportColumn<UserItem>[] = [
  { header: 'First name', value: (u) => u.firstName },
  { header: 'Last name', value: (u) => u.lastName },
  { header: 'Email', value: (u) => u.email },
  { header: 'Role', value: (u) => u.role },
  { header: 'Organization code', value: (u) => u.organization?.code },
  { header: 'Department code', value: (u) => u.department?.code },
  { header: 'Username', value: (u) => u.username },
  { header: 'Role name', value: (u) => ROLE_LABELS[u.role] },
  { header: 'Organization', value: (u) => u.organization?.name },
  { header: 'Department', value: (u) => u.department?.name },
  { header: 'Manager', value: (u) => u.manager?.name },
  { header: 'Phone', value: (u) => u.phoneNumber },
  { header: 'Status', value: (u) => u.status },
  { header: 'Last login (UTC)', value: (u) => when(u.lastLoginAt), type: 'datetime' },
  { header: 'Password changed (UTC)', value: (u) => when(u.passwordChangedAt), type: 'datetime' },
  { header: 'Two-factor', value: (u) => (u.twoFactorEnabled ? 'enabled' : 'disabled') },
  { header: 'Created (UTC)', value: (u) => when(u.createdAt), type: 'datetime' },
];

const PASSWORD_COLUMNS: ExportColumn<PasswordStatusItem>[] = [
  { header: 'Name', value: (u) => u.name },
  { header: 'Username', value: (u) => u.username },
  { header: 'Email', value: (u) => u.email },
  { header: 'Role', value: (u) => ROLE_LABELS[u.role] },
  { header: 'Organization', value: (u) => u.organization?.name },
  { header: 'Status', value: (u) => u.status },
  { header: 'Password changed (UTC)', value: (u) => when(u.passwordChangedAt), type: 'datetime' },
  { header: 'Password age (days)', value: (u) => u.passwordAgeDays, type: 'number' },
  { header: 'Must change password', value: (u) => (u.requirePasswordChange ? 'yes' : 'no') },
  { header: 'Temporary password expires (UTC)', value: (u) => when(u.tempPasswordExpiresAt), type: 'datetime' },
  { header: 'Two-factor', value: (u) => (u.twoFactorEnabled ? 'enabled' : 'disabled') },
  { header: 'Last login (UTC)', value: (u) => when(u.lastLoginAt), type: 'datetime' },
];

const SESSION_COLUMNS: ExportColumn<SessionItem>[] = [
  { header: 'User', value: (s) => s.user.name },
  { header: 'Username', value: (s) => s.user.username },
  { header: 'Organization', value: (s) => s.organization?.name },
  { header: 'Browser', value: (s) => s.browser },
  { header: 'Operating system', value: (s) => s.os },
  { header: 'IP address', value: (s) => s.ip },
  { header: 'Device id', value: (s) => s.deviceId },
  { header: 'Signed in (UTC)', value: (s) => when(s.createdAt), type: 'datetime' },
  { header: 'Last seen (UTC)', value: (s) => when(s.lastSeenAt), type: 'datetime' },
  { header: 'Expires (UTC)', value: (s) => when(s.expiresAt), type: 'datetime' },
];

export async function usersRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  // --- Users -----------------------------------------------------------------------------------
  listRoute(r, deps, '/api/users', listUsersPage, {
    config: read,
    tags,
    summary: 'Users in the caller’s scope',
    querystring: userListQuery,
    response: { 200: userList },
  });
  exportRoute(r, deps, '/api/users/export', exportUsers, {
    config: read,
    tags,
    summary: 'Users as CSV or XLSX (same filters as the list)',
    querystring: userExportQuery,
    filename: 'users',
    columns: USER_COLUMNS,
  });
  r.get(
    '/api/users/options',
    {
      config: read,
      schema: {
        tags,
        summary: 'Organizations, departments, roles and managers the caller may assign',
        response: { 200: userOptions },
      },
    },
    async (request) => loadOptions(contextOf(request, deps)),
  );
  r.post(
    '/api/users',
    {
      config: access,
      schema: {
        tags,
        summary: 'Create a user with a one-time temporary password',
        body: createUserInput,
        response: { 201: temporaryPasswordResponse, ...refusals },
      },
    },
    async (request, reply) => reply.code(201).send(await createUser(contextOf(request, deps), request.body)),
  );
  r.post(
    '/api/users/import',
    {
      config: access,
      bodyLimit: USER_IMPORT_MAX_CHARS * 2 + 4096,
      schema: {
        tags,
        summary: 'Import users from CSV text: every row is checked first; any error imports nothing',
        body: userImportInput,
        response: { 200: userImportResponse, 201: userImportResponse, ...refusals },
      },
    },
    async (request, reply) => {
      const result = await importUsers(contextOf(request, deps), request.body);
      return reply.code(result.dryRun ? 200 : 201).send(result);
    },
  );
  r.post(
    '/api/users/bulk/activate',
    {
      config: access,
      schema: {
        tags,
        summary: 'Activate several users',
        body: bulkUserIdsInput,
        response: { 200: bulkUserResult, ...refusals },
      },
    },
    async (request) => bulkSetStatus(contextOf(request, deps), request.body.ids, 'active'),
  );
  r.post(
    '/api/users/bulk/deactivate',
    {
      config: access,
      schema: {
        tags,
        summary: 'Deactivate several users (their sessions end at once)',
        body: bulkUserIdsInput,
        response: { 200: bulkUserResult, ...refusals },
      },
    },
    async (request) => bulkSetStatus(contextOf(request, deps), request.body.ids, 'inactive'),
  );

  // --- Passwords -------------------------------------------------------------------------------
  listRoute(r, deps, '/api/users/passwords', listPasswordStatus, {
    config: read,
    tags,
    summary: 'Password age, temporary-password expiry and two-factor status',
    querystring: passwordStatusQuery,
    response: { 200: passwordStatusList },
  });
  exportRoute(r, deps, '/api/users/passwords/export', exportPasswordStatus, {
    config: read,
    tags,
    summary: 'Password status as CSV or XLSX (step-up; API keys refused)',
    querystring: passwordStatusExportQuery,
    filename: 'password-status',
    columns: PASSWORD_COLUMNS,
  });

  // --- One user ----------------------------------------------------------------------------------
  getVersionedRoute(r, deps, '/api/users/:id', (ctx, { id }) => getUser(ctx, id), {
    config: read,
    tags,
    summary: 'One user',
    params: idParam,
    response: { 200: userItem, 404: errorResponse },
  });
  r.put(
    '/api/users/:id',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Edit names, e-mail, phone, organization, department and manager; with If-Match, only if the user is still at that version (412 otherwise)',
        params: idParam,
        body: updateUserInput,
        response: { 200: userItem, ...refusals, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await updateUser(contextOf(request, deps), request.params.id, request.body, expectedVersion(request)),
      ),
  );
  r.post(
    '/api/users/:id/activate',
    {
      config: access,
      schema: {
        tags,
        summary: 'Activate a user',
        params: idParam,
        response: { 200: userItem, ...refusals, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await setUserStatus(contextOf(request, deps), request.params.id, 'active', expectedVersion(request)),
      ),
  );
  r.post(
    '/api/users/:id/deactivate',
    {
      config: access,
      schema: {
        tags,
        summary: 'Deactivate a user; every session of theirs ends at once',
        params: idParam,
        response: { 200: userItem, ...refusals, ...versionConflictResponse },
      },
    },
    async (request, reply) =>
      withEtag(
        reply,
        await setUserStatus(contextOf(request, deps), request.params.id, 'inactive', expectedVersion(request)),
      ),
  );
  r.post(
    '/api/users/:id/reset-password',
    {
      config: access,
      schema: {
        tags,
        summary: 'Reset to a one-time temporary password (needs a recent password confirmation)',
        params: idParam,
        response: { 200: temporaryPasswordResponse, ...refusals },
      },
    },
    async (request) => resetPassword(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/users/:id/force-password-change',
    {
      config: access,
      schema: {
        tags,
        summary: 'Require a new password on the user’s next call',
        params: idParam,
        response: { 200: forcePasswordChangeResponse, ...refusals },
      },
    },
    async (request) => forcePasswordChange(contextOf(request, deps), request.params.id),
  );
  r.post(
    '/api/users/:id/sessions/revoke-all',
    {
      config: access,
      schema: {
        tags,
        summary:
          'End every session of a user (your own: every other one); another user’s needs a recent password confirmation',
        params: idParam,
        response: { 200: revokeSessionsResponse, ...refusals },
      },
    },
    async (request) => revokeAllOfUser(contextOf(request, deps), request.params.id),
  );

  // --- Sessions --------------------------------------------------------------------------------
  listRoute(r, deps, '/api/sessions', listSessionsPage, {
    config: read,
    tags: ['sessions'],
    summary: 'Active device sessions in the caller’s scope',
    querystring: sessionListQuery,
    response: { 200: sessionList },
  });
  exportRoute(r, deps, '/api/sessions/export', exportSessions, {
    config: read,
    tags: ['sessions'],
    summary: 'Active sessions as CSV or XLSX',
    querystring: sessionExportQuery,
    filename: 'sessions',
    columns: SESSION_COLUMNS,
  });
  r.delete(
    '/api/sessions/:id',
    {
      config: access,
      schema: {
        tags: ['sessions'],
        summary: 'End one session; another user’s needs a recent password confirmation',
        params: idParam,
        response: { 200: revokeSessionsResponse, ...refusals },
      },
    },
    async (request) => revokeOne(contextOf(request, deps), request.params.id),
  );
}
