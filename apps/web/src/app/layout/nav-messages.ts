import { defineMessages } from '@/lib/i18n/define-messages';
import type { Message } from '@/lib/i18n/i18n';
import type { SettingsSection } from '@/lib/route-catalogue';

/** The frame's own words: menu names, groups and the account actions. */
export const navMessages = defineMessages({
  home: { id: 'nav.home', defaultMessage: 'Outlay home' },
  main: { id: 'nav.main', defaultMessage: 'Main' },
  mobile: { id: 'nav.mobile', defaultMessage: 'Mobile' },
  admin: { id: 'nav.admin', defaultMessage: 'Admin' },
  settings: { id: 'nav.settings', defaultMessage: 'Settings' },
  more: { id: 'nav.more', defaultMessage: 'More' },
  account: { id: 'nav.account', defaultMessage: 'Account' },
  logout: { id: 'nav.logout', defaultMessage: 'Logout' },
  settingsSection: { id: 'nav.settingsSection', defaultMessage: 'Settings · {section}' },
});

/** The Settings menu's groups. */
export const sectionMessages: Record<SettingsSection, Message> = defineMessages({
  Users: { id: 'nav.section.users', defaultMessage: 'Users' },
  Security: { id: 'nav.section.security', defaultMessage: 'Security' },
  Advanced: { id: 'nav.section.advanced', defaultMessage: 'Advanced' },
  Analytics: { id: 'nav.section.analytics', defaultMessage: 'Analytics' },
  Other: { id: 'nav.section.other', defaultMessage: 'Other' },
});
