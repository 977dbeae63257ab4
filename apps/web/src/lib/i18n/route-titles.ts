import { useCallback } from 'react';
import { useI18n } from './i18n';

/**
 * A screen's title is written once, in English, in the route catalogue; its translations are
 * keyed by the path (`route:/approvals`), so menus, tabs and headings read the same word.
 */
export const routeTitleId = (path: string): string => `route:${path}`;

/** The title of the screen at `path` in the person's language (`english` when it has none). */
export function useRouteTitle(): (path: string, english: string) => string {
  const { t } = useI18n();
  return useCallback((path: string, english: string) => t({ id: routeTitleId(path), defaultMessage: english }), [t]);
}
