import {
  Bot,
  CheckSquare,
  LayoutDashboard,
  MessageSquare,
  PlusCircle,
  type LucideIcon,
} from 'lucide-react';
import { ADMIN_MENU_ROLES } from '@outlay/contracts/role-names';
import type { CurrentUser } from '@outlay/contracts/auth';
import { menuRoutes, SETTINGS_SECTIONS, type AppRoute, type SettingsSection } from '../routes';

export interface NavItem {
  href: string;
  label: string;
  icon?: LucideIcon;
}

const MAIN_ICONS: Record<string, LucideIcon> = {
  '/': LayoutDashboard,
  '/new-request': PlusCircle,
  '/approvals': CheckSquare,
  '/communications': MessageSquare,
  '/executive-ai-copilot': Bot,
};

const toItem = (route: AppRoute): NavItem => ({ href: route.path, label: route.title, icon: MAIN_ICONS[route.path] });

export const MAIN_ITEMS: NavItem[] = menuRoutes('main').map(toItem);
export const ADMIN_ITEMS: NavItem[] = menuRoutes('admin').map(toItem);
export const SETTINGS_GROUPS: { section: SettingsSection; items: NavItem[] }[] = SETTINGS_SECTIONS.map((section) => ({
  section,
  items: menuRoutes('settings', section).map(toItem),
}));
export const AVATAR_ITEMS: NavItem[] = menuRoutes('avatar').map(toItem);

/** docs/product.md §6.1, §6.5: only admin, cfo and owner see the Admin and Settings menus. */
export function seesAdminMenus(user: Pick<CurrentUser, 'role'>): boolean {
  return (ADMIN_MENU_ROLES as readonly string[]).includes(user.role);
}

export function isActive(href: string, location: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}
