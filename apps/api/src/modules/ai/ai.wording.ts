// The optional wording model: an OpenAI-compatible chat endpoint (LLM_BASE_URL) may reword a
// Copilot answer. It is sent only the question and the answer the caller is about to read, never
// rows or figures beyond them, and its text is kept only when every figure of the answer is still
// in it, written the same way; anything else (an error, a slow reply, a changed number) keeps
// the answer as the templates wrote it.
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../lib/context.ts';

/** The whole exchange, so a slow model never holds an answer up for long. */
export const WORDING_TIMEOUT_MS = 4000;

const INSTRUCTIONS =
  'You reword answers of a finance assistant. Rewrite the answer in clear, concise English for an executive. ' +
  'Keep every number, amount with its currency sign or code, percentage, date, period, reference and name exactly as written. ' +
  'Add no facts, no advice and no figures. Reply with the reworded answer only.';

/** The figures of a text: digits with their separators ("$1,234.56", "92.5", "REQ-000123", "2026"). */
export function figuresOf(text: string): string[] {
  return text.match(/\d[\d,.]*\d|\d/g) ?? [];
}

export function keepsFigures(original: string, reworded: string): boolean {
  const have = figuresOf(reworded);
  const pool = [...have];
  for (const f of figuresOf(original)) {
    const i = pool.indexOf(f);
    if (i < 0) return false;
    pool.splice(i, 1);
  }
  // No figure of its own either.
  return pool.length === 0;
}

export async function reword(
  llm: NonNullable<AppDeps['llm']>,
  question: string,
  answer: string,
  log?: FastifyBaseLogger,
): Promise<string> {
  try {
    const res = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(llm.apiKey ? { authorization: `Bearer ${llm.apiKey}` } : {}) },
      body: JSON.stringify({
        model: llm.model,
        temperature: 0,
        messages: [
          { role: 'system', content: INSTRUCTIONS },
          { role: 'user', content: `Question: ${question}\n\nAnswer: ${answer}` },
        ],
      }),
      signal: AbortSignal.timeout(WORDING_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`status ${res.status}`);
    const body = (await res.json()) as { choices?: { message?: { content?: unknown } }[] };
    const text = body.choices?.[0]?.message?.content;
    if (typeof text !== 'string' || !text.trim() || text.length > answer.length * 2 + 200) return answer;
    const reworded = text.trim();
    if (!keepsFigures(answer, reworded)) {
      log?.info('the wording model changed a figure; the answer is kept as written');
      return answer;
    }
    return reworded;
  } catch (error) {
    log?.warn({ err: error }, 'the wording model did not answer; the answer is kept as written');
    return answer;
  }
}
