import { Link } from 'wouter';
import type { Category, CategoryLimit } from '@outlay/contracts/categories';
import { POLICY_ACTION_LABELS } from '@outlay/contracts/policies';
import { useHolds } from '@/components/read-only-note';
import { formatMoney } from '@/lib/format';

/** Where a limit is changed: the policy screen, searched for its rule. */
export function policyLink(limit: Pick<CategoryLimit, 'ruleName'>): string {
  return `/policy-management?q=${encodeURIComponent(limit.ruleName)}`;
}

function words(limit: CategoryLimit): string {
  const amount = formatMoney(limit.amount, limit.currency);
  const per = limit.kind === 'category_limit_month' ? ' per month' : '';
  const where = limit.organizationName ? ` at ${limit.organizationName}` : '';
  return `${amount}${per}${where}`;
}

/**
 * The limits of one kind that apply to a category, each with the rule it comes from: the policy
 * rule is the one place the number is set, so the rule's name links to it for those who may change it.
 */
export function CategoryLimits({
  category,
  kinds,
  empty,
}: {
  category: Category;
  kinds: readonly CategoryLimit['kind'][];
  empty: string;
}) {
  const canChange = useHolds('policies.manage');
  const limits = category.limits.filter((l) => kinds.includes(l.kind));
  if (limits.length === 0) return <span className="text-muted-foreground">{empty}</span>;
  return (
    <ul className="flex flex-col gap-1">
      {limits.map((l) => (
        <li key={l.ruleId} className="flex flex-col">
          <span title={l.eachOrganizationCurrency ? "In each company's own currency; shown in yours" : undefined}>
            {words(l)}
            <span className="text-muted-foreground"> · {POLICY_ACTION_LABELS[l.action]}</span>
            {l.conditional && <span className="text-muted-foreground"> (with conditions)</span>}
          </span>
          {canChange ? (
            <Link href={policyLink(l)} className="text-xs text-primary underline-offset-2 hover:underline">
              {l.ruleName}
            </Link>
          ) : (
            <span className="text-xs text-muted-foreground">{l.ruleName}</span>
          )}
        </li>
      ))}
    </ul>
  );
}
