import { useCallback } from 'react';
import { useI18n } from './i18n';
import { routeTitleId } from './route-title-id';

/** The title of the screen at `path` in the person's language (`english` when it has none). */
export function useRouteTitle(): (path: string, english: string) => string {
  const { t } = useI18n();
  return useCallback((path: string, english: string) => t({ id: routeTitleId(path), defaultMessage: english }), [t]);
}
