import { BadgeCheck, Building2, ShieldCheck, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Brand } from '@/components/brand';

const HIGHLIGHTS = [
  {
    icon: Wallet,
    title: 'Spend with control',
    text: 'Requests, budgets and approvals for every company in the group.',
  },
  {
    icon: Building2,
    title: 'One group, many entities',
    text: 'Subsidiaries in their own currencies, consolidated at group level.',
  },
  {
    icon: ShieldCheck,
    title: 'Secure by default',
    text: 'Device-bound sessions, two-factor sign-in and a full audit trail.',
  },
];

/** The signed-out frame: a brand panel on wide screens, the form card beside it. */
export function AuthLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="flex min-h-dvh w-full">
      <aside className="relative hidden w-[42%] max-w-xl flex-col justify-between overflow-hidden bg-brand p-10 text-brand-foreground lg:flex">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -right-24 -top-24 size-96 rounded-full bg-blue-600/20 blur-3xl"
        />
        <Brand inverted />
        <div className="relative flex flex-col gap-8">
          <div>
            <p className="text-3xl font-semibold leading-tight text-white">
              Expenses and approvals for the whole group.
            </p>
            <p className="mt-3 text-sm text-slate-300">
              Raise a request, route it to the right approver, and see it land in the budget.
            </p>
          </div>
          <ul className="flex flex-col gap-5">
            {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-3">
                <span className="h-fit shrink-0 self-start rounded-lg bg-white/10 p-2 text-blue-200">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <span>
                  <span className="block font-medium text-white">{title}</span>
                  <span className="block text-sm text-slate-300">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative flex items-center gap-2 text-xs text-slate-400">
          <BadgeCheck className="size-4" aria-hidden="true" /> Internal system. Authorized staff only.
        </p>
      </aside>
      <main className="flex flex-1 flex-col items-center justify-center px-4 py-8 sm:px-8">
        <div className="mb-6 lg:hidden">
          <Brand />
        </div>
        <div className={wide ? 'w-full max-w-2xl' : 'w-full max-w-md'}>{children}</div>
      </main>
    </div>
  );
}
