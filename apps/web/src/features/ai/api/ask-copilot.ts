import { useMutation } from '@tanstack/react-query';
import type { CopilotAnswer, CopilotInput } from '@outlay/contracts/ai';
import { apiJson } from '@/lib/api-client';

export const COPILOT_URL = '/api/ai/copilot';

/** `POST /api/ai/copilot`: one question, with the conversation's earlier questions for follow-ups. */
export function askCopilot(input: CopilotInput) {
  return apiJson<CopilotAnswer>('POST', COPILOT_URL, input);
}

export function useAskCopilot() {
  return useMutation({ mutationFn: askCopilot });
}
