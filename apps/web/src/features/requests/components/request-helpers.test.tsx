import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MESSAGES } from '@outlay/contracts/requests';
import { formatRate } from '@/lib/format';
import { attachmentProblem } from '../api/upload-attachment';
import { editHrefOf } from './request-detail/request-detail-view';
import { sumAmounts } from './advanced-fields';
import { ageOf } from './request-columns';

describe('request form helpers', () => {
  it('adds amounts exactly and skips what is not an amount yet', () => {
    expect(sumAmounts(['0.10', '0.20', '400.1', '32.01', 'abc', '', null])).toBe('432.41');
    expect(sumAmounts(['60', '40'], /^\d{1,3}(\.\d{1,2})?$/)).toBe('100.00');
  });

  it('checks type and size of attachments before upload with the contract messages', () => {
    const png = new File([new Uint8Array(10)], 'r.png', { type: 'image/png' });
    const txt = new File(['x'], 'n.txt', { type: 'text/plain' });
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'b.pdf', { type: 'application/pdf' });
    expect(attachmentProblem(png)).toBeNull();
    expect(attachmentProblem(txt)).toBe(ATTACHMENT_MESSAGES.type);
    expect(attachmentProblem(big)).toBe(ATTACHMENT_MESSAGES.size);
    expect(attachmentProblem(png, 20)).toBe(ATTACHMENT_MESSAGES.count);
  });

  it('shows rates exactly, with at least four decimals', () => {
    expect(formatRate('1.08720900')).toBe('1.087209');
    expect(formatRate('1.08500000')).toBe('1.0850');
    expect(formatRate('1.00000000')).toBe('1.0000');
    expect(formatRate('0.27229000')).toBe('0.27229');
  });

  it('sends drafts with line items, allocations or recurrence to the advanced form', () => {
    expect(editHrefOf({ id: 'a', lineItems: [], allocations: [], recurrence: 'none' })).toBe('/new-request?edit=a');
    expect(
      editHrefOf({
        id: 'a',
        lineItems: [],
        allocations: [{ departmentId: 'd', departmentName: 'D', percent: '100' }],
        recurrence: 'none',
      }),
    ).toBe('/advanced-request?edit=a');
  });

  it('tells the age of a request', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(ageOf('2026-11-21T11:30:00Z', now)).toBe('30 min');
    expect(ageOf('2026-11-20T12:00:00Z', now)).toBe('24 h');
    expect(ageOf('2026-11-14T12:00:00Z', now)).toBe('7 d');
    expect(ageOf(null, now)).toBe('—');
  });
});
