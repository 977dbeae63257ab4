import { useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api-client';

/*
 * Attachment content is fetched as a blob: auth is a bearer header, so a plain <img src> cannot
 * load it.
 */

/** An attachment's content or thumbnail as an object URL (revoked when no longer shown). */
export function useObjectUrl(url: string | null | undefined): { src: string | null; failed: boolean } {
  const [state, setState] = useState<{ url: string | null; src: string | null; failed: boolean }>({
    url: null,
    src: null,
    failed: false,
  });
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    let objectUrl: string | null = null;
    apiRequest('GET', url, undefined, { signal: controller.signal })
      .then((res) => res.blob())
      .then((blob) => {
        objectUrl = URL.createObjectURL(blob);
        setState({ url, src: objectUrl, failed: false });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ url, src: null, failed: true });
      });
    return () => {
      controller.abort();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  return state.url === url ? { src: state.src, failed: state.failed } : { src: null, failed: false };
}
