import { useSyncExternalStore } from 'react';

/** Below 640 px (Tailwind's `sm`): where lists become cards and charts give way to what fits a phone. */
const NARROW = '(max-width: 639px)';

/** Whether the window is phone-narrow now, following it as it changes (a rotated phone, a resized window). */
export function useNarrow(): boolean {
  return useSyncExternalStore(
    (change) => {
      const m = window.matchMedia(NARROW);
      m.addEventListener('change', change);
      return () => m.removeEventListener('change', change);
    },
    () => window.matchMedia(NARROW).matches,
    () => false,
  );
}
