import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SecuritySettings } from '@outlay/contracts/security';
import { SecuritySettingsForm } from './security-settings-form';

const SETTINGS = {
  passwordMinLength: 12,
  lockoutThreshold: 5,
  lockoutMinutes: 15,
  sessionLifetimeDays: 30,
  idleTimeoutMinutes: 10_080,
  twoFactorRequiredRoles: [],
  authorizedDomains: ['meridiangroup.com'],
  updatedAt: null,
} satisfies SecuritySettings;

describe('SecuritySettingsForm', () => {
  it('says the idle timeout as a span people read, as it is typed', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SecuritySettingsForm settings={SETTINGS} currentRole="owner" twoFactorEnabled />
      </QueryClientProvider>,
    );
    expect(screen.getByText('10,080 minutes (7 days) without activity ends a session')).toBeInTheDocument();
    expect(screen.queryByText(/10080/)).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText(/Idle timeout/), { target: { value: '90' } });
    expect(screen.getByText('90 minutes without activity ends a session')).toBeInTheDocument();
  });
});
