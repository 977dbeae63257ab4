import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { QueryState } from '@/components/query-state';
import { useTwoFactorAdoption } from '../api/two-factor-adoption';

/** Active users with two-factor enabled, per role (docs/product.md §3.10 /auth-security). */
export function TwoFactorAdoptionCard() {
  const adoption = useTwoFactorAdoption();
  return (
    <Card>
      <CardHeader>
        <CardTitle>Two-factor adoption</CardTitle>
        <CardDescription>
          {adoption.data
            ? `${adoption.data.total.enabled} of ${adoption.data.total.users} active users (${adoption.data.total.percent}%) use two-factor.`
            : 'Active users with two-factor enabled, per role.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <QueryState
          query={adoption}
          loadingLabel="Loading two-factor adoption"
          errorMessage="Two-factor adoption could not be loaded."
        >
          {(data) => (
            <ul className="flex flex-col gap-3" aria-label="Two-factor adoption per role">
              {data.roles.map((r) => (
                <li key={r.role} className="flex flex-col gap-1">
                  <div className="flex items-center justify-between gap-2 text-sm">
                    <span className="flex items-center gap-2">
                      {r.label}
                      {r.required && <Badge variant="primary">Required</Badge>}
                    </span>
                    <span className="tabular-nums text-muted-foreground">
                      {r.enabled}/{r.users} · {r.percent}%
                    </span>
                  </div>
                  <div
                    className="h-2 overflow-hidden rounded-full bg-slate-100"
                    role="progressbar"
                    aria-label={`${r.label}: two-factor adoption`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={r.percent}
                  >
                    <div
                      className={r.required && r.percent < 100 ? 'h-full bg-amber-500' : 'h-full bg-primary'}
                      style={{ width: `${r.percent}%` }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}
