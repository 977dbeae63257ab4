// The onboarding checklist (docs/product.md §3.15 /onboarding-tutorials): steps per role that complete
// themselves from what the user really did; the user may dismiss the list.
import { z } from 'zod';
import { helpAudience } from './tutorials.ts';

export const ONBOARDING_STEP_VALUES = [
  'complete_profile',
  'enable_two_factor',
  'notification_settings',
  'read_tutorial',
  'submit_request',
  'decide_approval',
  'save_report',
  'manage_budget',
  'review_registration',
  'review_security',
] as const;
export type OnboardingStepKey = (typeof ONBOARDING_STEP_VALUES)[number];

export const onboardingStep = z.object({
  key: z.enum(ONBOARDING_STEP_VALUES),
  track: helpAudience,
  title: z.string(),
  description: z.string(),
  done: z.boolean(),
  /** When the event that completed the step happened (null while open). */
  doneAt: z.string().nullable(),
  /** The screen where the step is done. */
  link: z.string(),
  /** The how-to article for the step. */
  tutorialSlug: z.string().nullable(),
});
export type OnboardingStep = z.infer<typeof onboardingStep>;

export const onboardingChecklist = z.object({
  tracks: z.array(helpAudience),
  steps: z.array(onboardingStep),
  completed: z.number().int(),
  total: z.number().int(),
  /** When every step was first seen done (kept even if a step is later undone, such as 2FA turned off). */
  completedAt: z.string().nullable(),
  dismissedAt: z.string().nullable(),
  /** Whether the dashboard shows the checklist: steps left and not dismissed. */
  showOnDashboard: z.boolean(),
});
export type OnboardingChecklist = z.infer<typeof onboardingChecklist>;

export const onboardingDismissInput = z.object({ dismissed: z.boolean() });
export type OnboardingDismissInput = z.infer<typeof onboardingDismissInput>;
