// A category's limits are policy rules that name it (or any category): this reads them for the
// category screen, so the number shown is the number the submission check uses.
import {
  CATEGORY_LIMIT_KIND_VALUES,
  type CategoryLimit,
  type PolicyConditionGroup,
  type PolicyParams,
} from '@outlay/contracts';
import { groupCurrency } from '../../lib/fx.ts';
import type { Ctx } from '../../lib/context.ts';
import { isoDay, activeRulesOfKinds, organizationById } from '../policies/index.ts';

export interface LimitedCategory {
  id: string;
  organizationId: string | null;
  organizationCurrency: string | null;
}

/**
 * The active rules in force today that the caller may see (`visibleOrg` undefined: every
 * organization's; otherwise the group-wide ones and that organization's), as a function from a
 * category to its limits in priority order.
 */
export async function categoryLimitsReader(
  ctx: Ctx,
  p: { visibleOrg: string | null | undefined; readerOrganizationId: string | null },
) {
  const today = isoDay(ctx.now);
  const rows = (await activeRulesOfKinds(ctx.db, [...CATEGORY_LIMIT_KIND_VALUES])).filter(
    ({ rule }) =>
      (p.visibleOrg === undefined || rule.organizationId === null || rule.organizationId === p.visibleOrg) &&
      !(rule.effectiveFrom && rule.effectiveFrom > today) &&
      !(rule.effectiveTo && rule.effectiveTo < today),
  );
  const readerOrg = p.readerOrganizationId ? await organizationById(ctx.db, p.readerOrganizationId) : undefined;
  const readerCurrency = readerOrg?.currency ?? (await groupCurrency(ctx.db));
  return (category: LimitedCategory): CategoryLimit[] =>
    rows.flatMap(({ rule, organizationName, organizationCurrency }) => {
      const params = (rule.params ?? {}) as PolicyParams;
      if (params.categoryId && params.categoryId !== category.id) return [];
      // A rule of one organization never meets the requests of another organization's category.
      if (rule.organizationId && category.organizationId && rule.organizationId !== category.organizationId) return [];
      const amount = rule.kind === 'receipt_required' ? params.above : params.limit;
      if (!amount) return [];
      const own = params.currency ?? organizationCurrency ?? category.organizationCurrency;
      const conditions = rule.conditions as PolicyConditionGroup | null;
      return [
        {
          ruleId: rule.id,
          ruleName: rule.name,
          kind: rule.kind as CategoryLimit['kind'],
          action: rule.action,
          amount,
          currency: own ?? readerCurrency,
          eachOrganizationCurrency: own === null || own === undefined,
          organizationName,
          conditional: !!conditions && conditions.items.length > 0,
        },
      ];
    });
}
