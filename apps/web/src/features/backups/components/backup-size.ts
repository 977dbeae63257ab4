import { formatNumber } from '@/lib/format';

/** A file size in the unit that keeps it short (1,024 bytes a kilobyte, as file managers show it). */
export function formatSize(bytes: number | null): string {
  if (bytes === null) return '—';
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${formatNumber(value, unit === 0 ? 0 : 1)} ${units[unit]}`;
}
