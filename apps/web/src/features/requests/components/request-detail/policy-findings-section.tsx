import { TriangleAlert } from 'lucide-react';
import type { RequestDetail } from '@outlay/contracts/requests';

const ACTION_WORDS: Record<string, string> = { warn: 'Warning', justify: 'Justification required', block: 'Blocked' };

function findingText(finding: unknown): { title: string; detail: string | null; severity: string | null } {
  if (finding && typeof finding === 'object') {
    const f = finding as Record<string, unknown>;
    const str = (k: string) => (typeof f[k] === 'string' ? (f[k] as string) : null);
    const title = str('message') ?? str('title') ?? str('rule') ?? str('code') ?? JSON.stringify(finding);
    // A policy finding names its rule and the rule's version the request was checked against.
    const rule = str('ruleName');
    const version = typeof f.version === 'number' ? ` · version ${f.version}` : '';
    const action = str('action');
    return {
      title,
      detail: rule ? `${rule}${version}` : (str('detail') ?? str('description')),
      severity: action ? (ACTION_WORDS[action] ?? action) : str('severity'),
    };
  }
  return { title: String(finding), detail: null, severity: null };
}

export function PolicyFindings({ detail }: { detail: RequestDetail }) {
  if (detail.policyFindings.length === 0 && !detail.overBudget)
    return <p className="text-sm text-muted-foreground">No policy findings.</p>;
  return (
    <ul className="flex flex-col gap-2">
      {detail.overBudget && (
        <li className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>Over budget{detail.overrunStatus ? ` — overrun decision: ${detail.overrunStatus}` : ''}</span>
        </li>
      )}
      {detail.policyFindings.map((f, i) => {
        const t = findingText(f);
        return (
          <li key={i} className="flex gap-2 rounded-md border border-amber-200 bg-amber-50 p-3 text-sm text-amber-950">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {t.severity && <span className="mr-1 font-semibold uppercase">{t.severity}:</span>}
              {t.title}
              {t.detail && <span className="block text-xs">{t.detail}</span>}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
