import { AlertTriangle } from 'lucide-react';
import { Link } from 'wouter';
import type { DashboardAlert } from '@outlay/contracts/dashboard';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';

export function AlertsCard({ alerts }: { alerts: DashboardAlert[] }) {
  return (
    <Card data-testid="alerts-card">
      <CardHeader>
        <CardTitle>Alerts</CardTitle>
      </CardHeader>
      <CardContent>
        {alerts.length === 0 ? (
          <p className="text-sm text-muted-foreground">Nothing needs your attention.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {alerts.map((a, i) => (
              <li
                key={`${a.kind}-${i}`}
                className={cn(
                  'flex items-start gap-2 rounded-md border px-3 py-2 text-sm',
                  a.severity === 'critical'
                    ? 'border-red-200 bg-red-50 text-red-900'
                    : a.severity === 'warning'
                      ? 'border-amber-200 bg-amber-50 text-amber-900'
                      : '',
                )}
              >
                <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span className="flex flex-col gap-1">
                  {a.message}
                  {a.link ? (
                    <Link href={a.link} className="font-medium underline">
                      Review
                    </Link>
                  ) : null}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
