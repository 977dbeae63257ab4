import { Bot, CheckSquare, LayoutDashboard, MessageSquare, PlusCircle, type LucideIcon } from 'lucide-react';
import { menuRoutes, SETTINGS_SECTIONS, type RouteEntry, type SettingsSection } from '@/lib/route-catalogue';

export { seesAdminMenus } from '@/lib/route-catalogue';

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

const toItem = (route: RouteEntry): NavItem => ({ href: route.path, label: route.title, icon: MAIN_ICONS[route.path] });

export const MAIN_ITEMS: NavItem[] = menuRoutes('main').map(toItem);
export const ADMIN_ITEMS: NavItem[] = menuRoutes('admin').map(toItem);
export const SETTINGS_GROUPS: { section: SettingsSection; items: NavItem[] }[] = SETTINGS_SECTIONS.map((section) => ({
  section,
  items: menuRoutes('settings', section).map(toItem),
}));
export const AVATAR_ITEMS: NavItem[] = menuRoutes('avatar').map(toItem);

export function isActive(href: string, location: string): boolean {
  return href === '/' ? location === '/' : location === href || location.startsWith(`${href}/`);
}
