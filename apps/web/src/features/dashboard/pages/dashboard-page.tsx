import { ArrowRight, CheckSquare, PlusCircle, ShieldCheck, UserCog } from 'lucide-react';
import { Link } from 'wouter';
import { RoleBadge } from '@/components/status-badges';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Badge } from '@/components/ui/badge';
import { greeting } from '@/lib/format';
import { useAuth } from '@/features/auth/api/current-user';

const PLANNED = [
  'Requesters: your requests and the decisions on them',
  'Approvers: your queue and the SLAs on each step',
  'Finance and owners: spend this month vs last, budget burn, overruns, pending value and approval cycle time',
  'Alerts and a live activity feed that updates without a reload',
];

/** / and /real-time-monitoring. The greeting is live; the role-aware KPIs come with the reporting work. */
export default function DashboardPage() {
  const { user } = useAuth();
  if (!user) return null;
  const actions = [
    { href: '/new-request', icon: PlusCircle, title: 'New Request', text: 'Raise a purchase, reimbursement or vendor payment.' },
    { href: '/approvals', icon: CheckSquare, title: 'Approvals', text: 'Decide on requests waiting for you.' },
    { href: '/profile', icon: UserCog, title: 'User Profile', text: 'Your details and password.' },
    ...(user.twoFactorEnabled
      ? []
      : [{ href: '/setup-2fa', icon: ShieldCheck, title: 'Set Up 2FA', text: 'Protect your sign-in with an authenticator app.' }]),
  ];
  return (
    <div
      className="mx-auto flex w-full max-w-6xl flex-col gap-6"
      data-scaffold="Role-aware dashboard: KPIs (spend vs last month, budget burn, overruns, pending value, cycle time), alerts and a live activity feed."
    >
      <section aria-labelledby="greeting" className="flex flex-col gap-2">
        <h1 id="greeting" className="text-2xl font-semibold tracking-tight sm:text-3xl">
          {greeting()}, {user.firstName}
        </h1>
        <p className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
          Signed in as <RoleBadge role={user.role} />
        </p>
      </section>
      <section aria-label="Quick actions" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {actions.map(({ href, icon: Icon, title, text }) => (
          <Link
            key={href}
            href={href}
            className="group flex items-start gap-4 rounded-xl border bg-card p-4 shadow-sm transition hover:border-blue-300 hover:shadow-md focus-visible:outline-2 focus-visible:outline-ring sm:flex-col sm:gap-3 sm:p-5"
          >
            <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg bg-blue-50 text-blue-700">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <span className="flex min-w-0 flex-col gap-1">
              <span className="flex items-center gap-1 font-semibold">
                {title}
                <ArrowRight className="size-4 opacity-0 transition group-hover:opacity-100" aria-hidden="true" />
              </span>
              <span className="text-sm text-muted-foreground">{text}</span>
            </span>
          </Link>
        ))}
      </section>
      <Card className="border-dashed">
        <CardHeader>
          <div className="flex flex-wrap items-center gap-2">
            <CardTitle>Your dashboard</CardTitle>
            <Badge variant="warning">Planned</Badge>
          </div>
          <CardDescription>
            Key figures are not shown yet: nothing on this page is sample data. The finished dashboard adapts to your role:
          </CardDescription>
        </CardHeader>
        <CardContent>
          <ul className="grid gap-2 text-sm sm:grid-cols-2">
            {PLANNED.map((item) => (
              <li key={item} className="flex gap-2 rounded-md bg-muted px-3 py-2">
                <span aria-hidden="true" className="mt-1.5 size-1.5 shrink-0 rounded-full bg-primary" />
                {item}
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}
