import { apiRequest } from '@/lib/api-client';

/** The file name from a Content-Disposition header (RFC 6266 `filename*` first), if any. */
export function filenameFromDisposition(header: string | null): string | undefined {
  if (!header) return undefined;
  const star = /filename\*\s*=\s*(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      return star[1];
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(header);
  return plain?.[1]?.trim() || undefined;
}

/**
 * Downloads a file from the API with the session's headers: the API client sends the bearer
 * and device headers (and renews an expired token once), then the body becomes an object URL
 * that a temporary link "clicks". Rejects with the client's ApiError when the server refuses.
 */
export async function downloadFile(url: string, fallbackName: string): Promise<string> {
  const res = await apiRequest('GET', url);
  const blob = await res.blob();
  const name = filenameFromDisposition(res.headers.get('Content-Disposition')) ?? fallbackName;
  const objectUrl = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = name;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
  } finally {
    // Revoke after the click has been handled so the download can start.
    setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
  }
  return name;
}
