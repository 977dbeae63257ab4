/**
 * The roles' names and labels, without a schema: the web app's frame and formatting need them on
 * every screen, and a zod schema beside them would put zod in every screen's first download.
 */
/** The 15 roles a visitor may ask for on /register, in the seed's order. */
export const REQUESTABLE_ROLES = [
  'requester',
  'user',
  'accounts',
  'manager',
  'department_head',
  'subsidiary_finance_manager',
  'subsidiary_technical',
  'subsidiary_supply_chain',
  'subsidiary_coo',
  'subsidiary_ceo',
  'group_supply_chain',
  'group_cfo',
  'group_cto',
  'group_coo',
  'group_ceo',
] as const;
/** Every role the product knows (docs/product.md §4.1, §5): the administrative three, then the requestable ones. */

export const ROLES = ['owner', 'admin', 'cfo', ...REQUESTABLE_ROLES] as const;
export type Role = (typeof ROLES)[number];

export type RequestableRole = (typeof REQUESTABLE_ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Owner',
  admin: 'Administrator',
  cfo: 'CFO',
  requester: 'Expense Requester',
  user: 'General User',
  accounts: 'Accounts/Finance',
  manager: 'Manager',
  department_head: 'Department Head',
  subsidiary_finance_manager: 'Subsidiary Finance Manager',
  subsidiary_technical: 'Subsidiary Technical Lead',
  subsidiary_supply_chain: 'Subsidiary Supply Chain',
  subsidiary_coo: 'Subsidiary COO',
  subsidiary_ceo: 'Subsidiary CEO',
  group_supply_chain: 'Group Supply Chain',
  group_cfo: 'Group CFO',
  group_cto: 'Group CTO',
  group_coo: 'Group COO',
  group_ceo: 'Group CEO',
};

/** Roles that see the Admin and Settings menus (docs/product.md §6.1). */
export const ADMIN_MENU_ROLES = ['admin', 'cfo', 'owner'] as const satisfies readonly Role[];

export const USER_STATUSES = ['active', 'pending', 'inactive'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
