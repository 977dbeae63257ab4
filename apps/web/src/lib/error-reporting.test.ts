import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import { installErrorReporting, reportClientError, truncate } from './error-reporting';

function sentBodies(fetchMock: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
  return fetchMock.mock.calls.map(
    (call) => JSON.parse(String((call[1] as RequestInit).body)) as Record<string, unknown>,
  );
}

describe('error reporting', () => {
  afterEach(() => vi.restoreAllMocks());

  it('never cuts a surrogate pair in half (the server refuses broken Unicode)', () => {
    expect(truncate('ab😀cd', 3)).toBe('ab');
    expect(truncate('ab😀cd', 4)).toBe('ab😀');
    expect(truncate(undefined, 3)).toBeUndefined();
  });

  it('reports uncaught errors and unhandled rejections, but not refused API calls, and each error once', () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 202 }));
    const uninstall = installErrorReporting(window);
    const thrown = new Error('Timer callback failed');
    window.dispatchEvent(new ErrorEvent('error', { error: thrown, message: thrown.message }));
    window.dispatchEvent(new ErrorEvent('error', { error: thrown, message: thrown.message }));
    const rejection = (reason: unknown) => {
      const event = new Event('unhandledrejection') as PromiseRejectionEvent;
      Object.defineProperty(event, 'reason', { value: reason });
      window.dispatchEvent(event);
    };
    rejection(new Error('Chart data was malformed'));
    rejection(new ApiError(404, 'Budget not found', { code: 'NOT_FOUND' }));
    rejection(new Error('Request failed: 401 Unauthorized'));
    uninstall();
    const bodies = sentBodies(fetchMock);
    expect(bodies.map((b) => b.message)).toEqual(['Timer callback failed', 'Chart data was malformed']);
    expect(bodies[0]).toMatchObject({ route: window.location.pathname });
    expect(fetchMock.mock.calls[0]![0]).toContain('/api/error-reports');
  });

  it('sends the component stack of a render failure', () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 202 }));
    reportClientError(new Error('Render failed'), '\n    at BudgetCard');
    expect(sentBodies(fetchMock)[0]).toMatchObject({ message: 'Render failed', componentStack: '\n    at BudgetCard' });
  });
});
