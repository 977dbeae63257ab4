// The notifications of events outside the approval engine: a registration to review, a sign-in
// from a new device, a payroll run to approve. Each is written in the transaction of the change
// it announces, through lib/notify.ts (so each user's in-app and e-mail preferences apply), with
// the shared formatters (en-US, UTC: no recipient locale is stored).
import { describeUserAgent, ROLE_LABELS, type Role } from '@outlay/contracts';
import { serverFormat } from '@outlay/contracts/format';
import { type Db } from '@outlay/db';
import { notify } from '../../lib/notify.ts';
import { holdersOf } from '../../lib/permission-holders.ts';

/** A registration request arrived: those who review registrations (users.manage) are told. */
export async function notifyRegistrationReceived(
  tx: Db,
  registration: { id: string; firstName: string; lastName: string; email: string; requestedRole: string },
  now: Date,
): Promise<void> {
  await notify(
    tx,
    await holdersOf(tx, 'users.manage', null),
    {
      type: 'registration_received',
      title: `${registration.firstName} ${registration.lastName} asked for access`.trim(),
      body: `${registration.email} asked for the role ${ROLE_LABELS[registration.requestedRole as Role] ?? registration.requestedRole} on ${serverFormat.dateTime(now)} (UTC). Review it under Registration Requests.`,
      link: '/registration-management',
      entityType: 'registration_request',
      entityId: registration.id,
    },
    now,
  );
}

/** The user's account was signed in to from a device it had not used before: the user is told. */
export async function notifyNewDeviceSignIn(
  tx: Db,
  signIn: { userId: string; sessionId: string; userAgent: string | null; ip: string | null },
  now: Date,
): Promise<void> {
  const { browser, os } = describeUserAgent(signIn.userAgent);
  const device = [browser, os].filter((w) => w && w !== 'Unknown').join(' on ');
  const where = [device, signIn.ip ? `IP address ${signIn.ip}` : null].filter(Boolean).join(', ');
  await notify(
    tx,
    [signIn.userId],
    {
      type: 'new_device_sign_in',
      title: 'New sign-in from a new device',
      body: `Your account was signed in to on ${serverFormat.dateTime(now)} (UTC)${where ? ` from ${where}` : ''}. If this was not you, change your password and end the session under your profile.`,
      link: '/profile',
      entityType: 'session',
      entityId: signIn.sessionId,
    },
    now,
  );
}

/**
 * A payroll run was submitted for approval: those who approve payroll (payroll.approve, in the
 * run's organization or group-wide) are told. Called by the payroll run's submission.
 */
export async function notifyPayrollToApprove(
  tx: Db,
  run: {
    id: string;
    organizationId: string;
    organizationName: string;
    period: string;
    total: string;
    currency: string;
    employeeCount: number;
  },
  submittedById: string | null,
  now: Date,
): Promise<void> {
  const approvers = (await holdersOf(tx, 'payroll.approve', run.organizationId)).filter((id) => id !== submittedById);
  await notify(
    tx,
    approvers,
    {
      type: 'payroll_to_approve',
      title: `Payroll ${serverFormat.month(run.period)} of ${run.organizationName} waits for your approval`,
      body: `${serverFormat.money(run.total, run.currency)} for ${serverFormat.plural(run.employeeCount, 'employee')}`,
      link: `/payroll?run=${run.id}`,
      entityType: 'payroll_run',
      entityId: run.id,
    },
    now,
  );
}
