import { describe, expect, it } from 'vitest';
import { formatValue, ledgerWords } from './audit.ledger.ts';

const facts = { names: new Map<string, string>(), requests: new Map(), groupCurrency: null };

describe('the ledger words spans with their unit', () => {
  it('reads minutes and days as spans, other numbers as numbers', () => {
    expect(formatValue('idleTimeoutMinutes', 10_080, null)).toBe('10,080 minutes (7 days)');
    expect(formatValue('lockoutMinutes', 15, null)).toBe('15 minutes');
    expect(formatValue('sessionLifetimeDays', 30, null)).toBe('30 days');
    expect(formatValue('lockoutThreshold', 10_080, null)).toBe('10,080');
  });

  it('names the security settings a change touched without the unit twice', () => {
    const { changes } = ledgerWords(
      {
        action: 'security.settings_updated',
        entityType: 'settings',
        entityId: null,
        before: { idleTimeoutMinutes: 10_080, sessionLifetimeDays: 7 },
        after: { idleTimeoutMinutes: 60, sessionLifetimeDays: 30 },
        metadata: null,
      },
      facts,
    );
    expect(changes).toEqual([
      { field: 'Idle timeout', before: '10,080 minutes (7 days)', after: '60 minutes (1 hour)' },
      { field: 'Session lifetime', before: '7 days', after: '30 days' },
    ]);
  });
});
