import {
  ONBOARDING_STEP_VALUES,
  type HelpAudience,
  type OnboardingChecklist,
  type OnboardingDismissInput,
  type OnboardingStep,
  type OnboardingStepKey,
  type Permission,
} from '@outlay/contracts';
import { requireAuth, type AuthInfo, type Ctx } from '../../lib/context.ts';
import * as repo from './onboarding.repository.ts';

interface StepDefinition {
  track: HelpAudience;
  title: string;
  description: string;
  link: string;
  tutorialSlug: string | null;
  /** Who the step is for: any one of these permissions. */
  needs: readonly Permission[];
}

/** The checklist: which steps exist, for whom, and where each is done (the evidence is in the repository). */
const STEPS: Record<OnboardingStepKey, StepDefinition> = {
  complete_profile: {
    track: 'requester',
    title: 'Complete your profile',
    description: 'Add a phone number so approvers and finance can reach you about a request.',
    link: '/profile',
    tutorialSlug: 'signing-in-and-your-profile',
    needs: ['profile.manage'],
  },
  enable_two_factor: {
    track: 'requester',
    title: 'Set up two-factor authentication',
    description: 'Protect your account with a code from an authenticator app at every sign-in.',
    link: '/setup-2fa',
    tutorialSlug: 'two-factor-authentication',
    needs: ['profile.manage'],
  },
  notification_settings: {
    track: 'requester',
    title: 'Choose your notification settings',
    description: 'Decide which events reach you in the app and by e-mail, and whether e-mail comes as a digest.',
    link: '/notification-settings',
    tutorialSlug: 'notification-settings',
    needs: ['notifications.read'],
  },
  read_tutorial: {
    track: 'requester',
    title: 'Read a how-to article',
    description: 'The tutorials explain each screen step by step; open any one of them.',
    link: '/tutorials',
    tutorialSlug: null,
    needs: ['profile.manage'],
  },
  submit_request: {
    track: 'requester',
    title: 'Submit your first request',
    description: 'Raise a spending request and send it for approval.',
    link: '/new-request',
    tutorialSlug: 'submitting-a-spending-request',
    needs: ['requests.create'],
  },
  decide_approval: {
    track: 'approver',
    title: 'Decide on a request',
    description: 'Approve, reject or ask for information on a request waiting in your queue.',
    link: '/approvals',
    tutorialSlug: 'approving-requests',
    needs: ['approvals.act'],
  },
  save_report: {
    track: 'finance',
    title: 'Save a report',
    description: 'Build a report in Advanced Reporting and save it to run again or schedule.',
    link: '/advanced-reporting',
    tutorialSlug: 'the-report-builder',
    needs: ['budgets.manage', 'payroll.manage', 'payables.manage'],
  },
  manage_budget: {
    track: 'finance',
    title: 'Set up a budget line',
    description: 'Create, copy, import or adjust a budget line so spending is checked against it.',
    link: '/budget-management',
    tutorialSlug: 'budgets-and-overruns',
    needs: ['budgets.manage'],
  },
  review_registration: {
    track: 'admin',
    title: 'Review a registration request',
    description: 'Approve someone who asked for access, with their role and organization, or reject the request.',
    link: '/registration-management',
    tutorialSlug: 'signing-in-and-your-profile',
    needs: ['users.manage'],
  },
  review_security: {
    track: 'admin',
    title: 'Review the security settings',
    description: 'Check the password policy, session lifetime, lockout and which roles must use two-factor, then save.',
    link: '/security',
    tutorialSlug: 'two-factor-authentication',
    needs: ['security.manage'],
  },
};

const TRACK_ORDER: HelpAudience[] = ['requester', 'approver', 'finance', 'admin'];

function stepsFor(auth: AuthInfo): OnboardingStepKey[] {
  return ONBOARDING_STEP_VALUES.filter((key) => STEPS[key].needs.some((p) => auth.grants[p] !== undefined));
}

/** The caller's checklist: steps for the roles their permissions make them, each done or not from the records. */
export async function getChecklist(ctx: Ctx): Promise<OnboardingChecklist> {
  const auth = requireAuth(ctx);
  const keys = stepsFor(auth);
  const [evidence, stored] = await Promise.all([
    repo.stepEvidence(ctx.db, { userId: auth.userId }),
    repo.progressOf(ctx.db, { userId: auth.userId }),
  ]);
  const steps: OnboardingStep[] = keys.map((key) => {
    const def = STEPS[key];
    const at = evidence[key] ?? null;
    return {
      key,
      track: def.track,
      title: def.title,
      description: def.description,
      link: def.link,
      tutorialSlug: def.tutorialSlug,
      done: at !== null,
      doneAt: at ? at.toISOString() : null,
    };
  });
  const completed = steps.filter((s) => s.done).length;
  let completedAt = stored?.completedAt ?? null;
  if (completed === steps.length && !completedAt) {
    await repo.markCompleted(ctx.db, { userId: auth.userId, now: ctx.now });
    completedAt = (await repo.progressOf(ctx.db, { userId: auth.userId }))?.completedAt ?? ctx.now;
  }
  const dismissedAt = stored?.dismissedAt ?? null;
  return {
    tracks: TRACK_ORDER.filter((t) => steps.some((s) => s.track === t)),
    steps,
    completed,
    total: steps.length,
    completedAt: completedAt ? completedAt.toISOString() : null,
    dismissedAt: dismissedAt ? dismissedAt.toISOString() : null,
    showOnDashboard: completed < steps.length && !dismissedAt,
  };
}

/** Hides the checklist from the dashboard (or shows it again); the steps keep completing either way. */
export async function setDismissed(ctx: Ctx, input: OnboardingDismissInput): Promise<OnboardingChecklist> {
  const auth = requireAuth(ctx);
  await repo.setDismissed(ctx.db, { userId: auth.userId, dismissedAt: input.dismissed ? ctx.now : null, now: ctx.now });
  return getChecklist(ctx);
}
