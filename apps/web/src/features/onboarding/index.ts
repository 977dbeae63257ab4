/*
 * The onboarding feature's public face: what other features and the app shell use of it. Its pages are
 * reached through the route catalogue, never from here.
 */
export { useDismissOnboarding } from './api/dismiss-onboarding';
export { onboardingQueryOptions, useOnboarding } from './api/get-onboarding';
