// The users CSV import: preview every row, then create all of them or none, each with a
// one-time temporary password. Reading and checking the file is lib/import.ts.
import {
  ROLE_LABELS,
  USER_IMPORT_MAX_ROWS,
  canGrantRole,
  userImportRow,
  type Role,
  type UserImportResponse,
  type UserImportRowReport,
} from '@outlay/contracts';
import { users } from '@outlay/db';
import { AppError } from '../../lib/app-error.ts';
import { uniqueViolationOf } from '../../lib/db-errors.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { Ctx } from '../../lib/context.ts';
import { importSummary, readRecords, refuseFailingRows, validateRows, type ImportColumns } from '../../lib/import.ts';
import { issueTemporaryPassword, type TemporaryPassword } from '../../lib/passwords.ts';
import { allOrganizationsAndDepartments, existingEmails, usernamesLike } from './users.repository.ts';
import { audit, baseUsername, departmentRefusal, firstFree, organizationReachable } from './users.service.ts';
import { enqueueWebhookEvent } from '../../lib/webhook-outbox.ts';

const HEADER_ALIASES: Record<string, string> = {
  firstname: 'firstName',
  lastname: 'lastName',
  email: 'email',
  emailaddress: 'email',
  role: 'role',
  organizationcode: 'organizationCode',
  orgcode: 'organizationCode',
  organisationcode: 'organizationCode',
  departmentcode: 'departmentCode',
  deptcode: 'departmentCode',
  username: 'username',
};
const IMPORT_COLUMNS: ImportColumns = {
  aliases: HEADER_ALIASES,
  required: ['firstName', 'lastName', 'email', 'role', 'organizationCode'],
  missingMessage: (missing) =>
    `The header row must name the columns firstName, lastName, email, role, organizationCode, departmentCode and optionally username (missing: ${missing.join(', ')})`,
  maxRows: USER_IMPORT_MAX_ROWS,
  // An empty cell reads as an empty value, so the row schema words the refusal (e.g. "Organization code is required").
  emptyCells: 'keep',
};

interface PlannedRow {
  row: number;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  username?: string;
  organizationId: string;
  departmentId: string | null;
}

export async function importUsers(ctx: Ctx, input: { csv: string; dryRun: boolean }): Promise<UserImportResponse> {
  const auth = ctx.auth!;
  const records = await readRecords('csv', input.csv, IMPORT_COLUMNS);
  const { orgs, depts } = await allOrganizationsAndDepartments(ctx.db);
  const orgByCode = new Map(orgs.map((o) => [o.code.toLowerCase(), o]));
  const deptByCode = new Map(depts.map((d) => [`${d.organizationId}:${d.code.toLowerCase()}`, d]));

  const parsed = validateRows(records, userImportRow);
  const emails = parsed.flatMap((p) => (p.result.success ? [p.result.data.email] : []));
  const taken = await existingEmails(ctx.db, emails);
  const explicitUsernames = parsed.flatMap((p) =>
    p.result.success && p.result.data.username ? [p.result.data.username] : [],
  );
  const takenUsernames =
    explicitUsernames.length > 0 ? await usernamesLike(ctx.db, explicitUsernames) : new Set<string>();
  const firstRowOfEmail = new Map<string, number>();
  const firstRowOfUsername = new Map<string, number>();

  const report: UserImportRowReport[] = [];
  const plan: PlannedRow[] = [];
  for (const { row, record, result } of parsed) {
    const errors: string[] = [];
    const email = (record.email ?? '').trim().toLowerCase();
    if (!result.success) {
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? '');
        if (field === 'role') errors.push(record.role ? `Unknown role "${record.role}"` : 'Role is required');
        else if (field === 'email' && !email) errors.push('E-mail is required');
        else if ((field === 'firstName' || field === 'lastName') && !record[field])
          errors.push(`${field === 'firstName' ? 'First' : 'Last'} name is required`);
        else errors.push(issue.message);
      }
      report.push({ row, email, errors: [...new Set(errors)] });
      continue;
    }
    const data = result.data;
    const dupOf = firstRowOfEmail.get(data.email);
    if (dupOf !== undefined) errors.push(`Duplicate e-mail: also on row ${dupOf}`);
    else firstRowOfEmail.set(data.email, row);
    if (taken.has(data.email)) errors.push('A user with this e-mail already exists');
    if (!canGrantRole(auth.grants, data.role)) errors.push(`You cannot grant the role ${ROLE_LABELS[data.role]}`);
    const org = orgByCode.get(data.organizationCode.toLowerCase());
    let departmentId: string | null = null;
    if (!org || !organizationReachable(auth, org.id)) {
      errors.push(`Unknown organization code "${data.organizationCode}"`);
    } else if (!org.active) {
      errors.push(`Organization ${org.code} is inactive`);
    } else {
      if (data.departmentCode) {
        const code = data.departmentCode.toLowerCase();
        const dept =
          deptByCode.get(`${org.id}:${code}`) ?? deptByCode.get(`${org.id}:${org.code.toLowerCase()}-${code}`);
        if (!dept) errors.push(`Unknown department code "${data.departmentCode}" in ${org.code}`);
        else departmentId = dept.id;
      }
      const refusal = departmentRefusal(auth, departmentId);
      if (refusal && !errors.some((e) => e.startsWith('Unknown department'))) errors.push(refusal);
    }
    if (data.username) {
      const dupUser = firstRowOfUsername.get(data.username);
      if (dupUser !== undefined) errors.push(`Duplicate username: also on row ${dupUser}`);
      else firstRowOfUsername.set(data.username, row);
      if (takenUsernames.has(data.username)) errors.push(`The username "${data.username}" is already taken`);
    }
    report.push({ row, email: data.email, errors });
    if (errors.length === 0) {
      plan.push({
        row,
        firstName: data.firstName,
        lastName: data.lastName,
        email: data.email,
        role: data.role,
        username: data.username,
        organizationId: org!.id,
        departmentId,
      });
    }
  }

  const { summary, failing } = importSummary(report, input.dryRun);
  if (input.dryRun) return { ...summary, created: [], temporaryPasswordExpiresAt: null };
  refuseFailingRows(failing, report.length, failing);

  // Hashed four at a time: argon2 runs on the thread pool, which has four threads.
  const temps: TemporaryPassword[] = [];
  for (let i = 0; i < plan.length; i += 4) {
    temps.push(...(await Promise.all(plan.slice(i, i + 4).map(() => issueTemporaryPassword(ctx.now)))));
  }
  const expiresAt = temps[0]?.expiresAt ?? ctx.now;
  try {
    const created = await ctx.db.transaction(async (tx) => {
      const bases = [...new Set(plan.filter((p) => !p.username).map((p) => baseUsername(p.firstName)))];
      const takenNames = await usernamesLike(tx, bases);
      for (const p of plan) if (p.username) takenNames.add(p.username);
      const out: UserImportResponse['created'] = [];
      for (const [i, p] of plan.entries()) {
        const username = p.username ?? firstFree(baseUsername(p.firstName), takenNames);
        takenNames.add(username);
        const values = {
          username,
          email: p.email,
          firstName: p.firstName,
          lastName: p.lastName,
          role: p.role,
          status: 'active' as const,
          organizationId: p.organizationId,
          departmentId: p.departmentId,
        };
        const [row] = await tx
          .insert(users)
          .values({
            ...values,
            ...temps[i]!.fields,
            createdAt: ctx.now,
            updatedAt: ctx.now,
          })
          .returning({ id: users.id });
        await audit(ctx, tx, 'user.created', row!.id, { after: values, metadata: { via: 'csv_import', row: p.row } });
        await enqueueWebhookEvent(
          tx,
          'user.created',
          { userId: row!.id, username: values.username, role: values.role, organizationId: values.organizationId },
          ctx.now,
        );
        out.push({
          row: p.row,
          id: row!.id,
          username,
          email: p.email,
          name: `${p.firstName} ${p.lastName}`,
          temporaryPassword: temps[i]!.password,
        });
      }
      await writeAudit(
        tx,
        {
          actorId: auth.userId,
          action: 'users.imported',
          entityType: 'user',
          entityId: null,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          metadata: { count: out.length, userIds: out.map((c) => c.id) },
        },
        ctx.now,
      );
      return out;
    });
    return { ...summary, created, temporaryPasswordExpiresAt: expiresAt.toISOString() };
  } catch (error) {
    const constraint = uniqueViolationOf(error)?.constraint;
    if (constraint)
      throw new AppError('CONFLICT', {
        message: 'Another change added one of these users meanwhile; nothing was imported. Run the preview again.',
      });
    throw error;
  }
}
