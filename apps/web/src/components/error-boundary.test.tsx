import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary';

let fail = true;
function Flaky() {
  if (fail) throw new Error('card exploded');
  return <p>Card content</p>;
}

describe('ErrorBoundary panel', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    fail = true;
  });

  it('replaces only the failed panel with a notice, reports it, and retries', () => {
    const fetchMock = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 204 }));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <div>
        <ErrorBoundary panel="Alerts">
          <Flaky />
        </ErrorBoundary>
        <ErrorBoundary panel="Live activity">
          <p>Activity content</p>
        </ErrorBoundary>
      </div>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Alerts could not be shown');
    expect(screen.getByText('Activity content')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Something went wrong' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      expect.stringContaining('/api/error-reports'),
      expect.objectContaining({ method: 'POST' }),
    );

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(screen.getByText('Card content')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
