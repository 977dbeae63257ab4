import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AuditDetail, AuditFacets, AuditVerification } from '@outlay/contracts/audit';
import { apiJson } from '@/lib/api-client';

export const AUDIT_URL = '/api/audit';

export function auditEventQueryOptions(id: number) {
  return queryOptions({
    queryKey: [AUDIT_URL, id],
    queryFn: ({ signal }) => apiJson<AuditDetail>('GET', `${AUDIT_URL}/${id}`, undefined, { signal }),
  });
}

export function useAuditEvent(id: number | null) {
  return useQuery({ ...auditEventQueryOptions(id ?? 0), enabled: id !== null });
}

export function auditFacetsQueryOptions() {
  return queryOptions({
    queryKey: [`${AUDIT_URL}/facets`],
    queryFn: ({ signal }) => apiJson<AuditFacets>('GET', `${AUDIT_URL}/facets`, undefined, { signal }),
    staleTime: 60_000,
  });
}

export function useAuditFacets() {
  return useQuery(auditFacetsQueryOptions());
}

export function verifyAuditChain() {
  return apiJson<AuditVerification>('POST', `${AUDIT_URL}/verify`);
}

export function useVerifyAuditChain() {
  return useMutation({ mutationFn: verifyAuditChain });
}
