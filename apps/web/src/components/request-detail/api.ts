import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import {
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_MAX_PER_REQUEST,
  ATTACHMENT_MESSAGES,
  ATTACHMENT_TYPES,
  IDEMPOTENCY_HEADER,
  type Attachment,
  type PayRequestInput,
  type RequestDetail,
} from '@outlay/contracts/requests';
import { apiJson, apiRequest } from '@/lib/api-client';

/*
 * The calls the request detail makes itself (components may not import features/): the
 * detail, its actions, and attachment content fetched as blobs (auth is a bearer header, so
 * a plain <img src> cannot load them).
 */

export const REQUESTS_URL = '/api/requests';
export const MY_REQUESTS_URL = '/api/requests/mine';

export function requestUrl(id: string) {
  return `${REQUESTS_URL}/${encodeURIComponent(id)}`;
}

export function fetchRequestDetail(id: string, signal?: AbortSignal) {
  return apiJson<RequestDetail>('GET', requestUrl(id), undefined, { signal });
}

/** Key ['/api/requests', id]: invalidating ['/api/requests'] refreshes lists and details. */
export function requestDetailQueryOptions(id: string) {
  return queryOptions({ queryKey: [REQUESTS_URL, id], queryFn: ({ signal }) => fetchRequestDetail(id, signal) });
}

export function useRequestDetail(id: string | null | undefined) {
  return useQuery({ ...requestDetailQueryOptions(id ?? ''), enabled: Boolean(id) });
}

/** After any change: the scope list, the caller's list, every detail and the approvals queue. */
export function invalidateRequests(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: [REQUESTS_URL] }),
    queryClient.invalidateQueries({ queryKey: [MY_REQUESTS_URL] }),
    queryClient.invalidateQueries({ queryKey: ['/api/approvals/queue'] }),
    queryClient.invalidateQueries({ queryKey: ['/api/approvals/in-flight'] }),
  ]);
}

/** A fresh key for one attempt of a create or submit; a retry of the same attempt reuses it. */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function submitRequest(id: string, idempotencyKey: string) {
  return apiJson<RequestDetail>(
    'POST',
    `${requestUrl(id)}/submit`,
    {},
    { headers: { [IDEMPOTENCY_HEADER]: idempotencyKey } },
  );
}

export function cancelRequest(id: string, reason?: string) {
  return apiJson<RequestDetail>('POST', `${requestUrl(id)}/cancel`, { reason: reason ?? null });
}

export function respondToRequest(id: string, message: string) {
  return apiJson<RequestDetail>('POST', `${requestUrl(id)}/respond`, { message });
}

export function payRequest(id: string, input: PayRequestInput) {
  return apiJson<RequestDetail>('POST', `${requestUrl(id)}/pay`, input);
}

export function addComment(id: string, body: string) {
  return apiJson<unknown>('POST', `${requestUrl(id)}/comments`, { body });
}

export function uploadAttachment(id: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return apiJson<Attachment>('POST', `${requestUrl(id)}/attachments`, form);
}

export function deleteAttachment(id: string, attachmentId: string) {
  return apiRequest('DELETE', `${requestUrl(id)}/attachments/${encodeURIComponent(attachmentId)}`);
}

/** The client-side check before an upload (the server checks the content again). */
export function attachmentProblem(file: File, alreadyAttached = 0): string | null {
  if (!(ATTACHMENT_TYPES as readonly string[]).includes(file.type)) return ATTACHMENT_MESSAGES.type;
  if (file.size > ATTACHMENT_MAX_BYTES) return ATTACHMENT_MESSAGES.size;
  if (alreadyAttached >= ATTACHMENT_MAX_PER_REQUEST) return ATTACHMENT_MESSAGES.count;
  return null;
}

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

/** Today as YYYY-MM-DD in the user's time zone. */
export function todayIso(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}

/** An exchange rate as the API sends it ("1.08500000") without trailing zeros, at least 4 decimals ("1.0850"). */
export function formatRate(rate: string | null | undefined): string {
  if (!rate) return '';
  const m = /^(\d+)\.(\d+)$/.exec(rate.trim());
  if (!m) return rate;
  const decimals = m[2]!.replace(/0+$/, '').padEnd(4, '0');
  return `${m[1]}.${decimals}`;
}
