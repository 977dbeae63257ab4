import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { passwordStrength } from '@outlay/contracts/password-strength';
import { PasswordStrengthMeter } from '@/components/form/password-strength-meter';

describe('passwordStrength (docs/product.md §6.4)', () => {
  it.each([
    ['', 0, 'Very Weak'],
    ['abc', 1, 'Very Weak'],
    ['abcdefgh', 2, 'Weak'],
    ['Abcdefgh', 3, 'Fair'],
    ['Abcdefg1', 4, 'Good'],
    ['Abcdef1!', 5, 'Strong'],
    ['A1!', 3, 'Fair'],
    ['ABCDEFGH', 2, 'Weak'],
  ])('%j scores %i (%s)', (password, score, label) => {
    expect(passwordStrength(password)).toMatchObject({ score, label });
  });
});

describe('PasswordStrengthMeter', () => {
  it('shows the label and a bar whose width is score / 5', () => {
    render(<PasswordStrengthMeter password="Abcdefg1" />);
    expect(screen.getByTestId('strength-label')).toHaveTextContent('Good');
    expect(screen.getByTestId('strength-bar')).toHaveStyle({ width: '80%' });
    expect(screen.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuenow', '4');
  });

  it('is empty for an empty password and full for a strong one', () => {
    const { rerender } = render(<PasswordStrengthMeter password="" />);
    expect(screen.getByTestId('strength-bar')).toHaveStyle({ width: '0%' });
    rerender(<PasswordStrengthMeter password="Meridian!2026" />);
    expect(screen.getByTestId('strength-label')).toHaveTextContent('Strong');
    expect(screen.getByTestId('strength-bar')).toHaveStyle({ width: '100%' });
  });

  it('ticks the requirements that are met and asks for upper, lower and a number', () => {
    render(<PasswordStrengthMeter password="abcdefgh" />);
    expect(screen.getByText('At least 8 characters').parentElement).toHaveTextContent('(met)');
    expect(screen.getByText('One uppercase letter').parentElement).toHaveTextContent('(not met)');
    expect(
      screen.getByText(/upper and lower case letters and a number; a special character is recommended/),
    ).toBeInTheDocument();
  });
});
