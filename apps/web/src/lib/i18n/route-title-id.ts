/**
 * A screen's title is written once, in English, in the route catalogue; its translations are
 * keyed by the path (`route:/approvals`), so menus, tabs and headings read the same word.
 */
export const routeTitleId = (path: string): string => `route:${path}`;
