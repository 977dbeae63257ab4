import { describe, expect, it } from 'vitest';
import { pdfMake } from './pdf.ts';

const doc = (font: string) => ({ content: [{ text: `Total £1,234.50 in ${font}` }], defaultStyle: { font } });

describe('pdfMake', () => {
  it('writes documents in Roboto and in Helvetica, in either order, from one font table', async () => {
    // A report (Roboto) exported before a payslip (Helvetica) used to leave pdfmake without Helvetica.
    for (const font of ['Roboto', 'Helvetica', 'Roboto']) {
      const pdf = Buffer.from(await pdfMake().createPdf(doc(font)).getBuffer());
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdf.toString('latin1')).toMatch(
        font === 'Helvetica' ? /\/BaseFont \/Helvetica/ : /\/BaseFont \/[A-Z]{6}\+Roboto/,
      );
    }
  });

  it('reads no file but its fonts and fetches no URL', async () => {
    const image = { content: [{ image: '/etc/hostname' }], defaultStyle: { font: 'Helvetica' } };
    await expect(pdfMake().createPdf(image).getBuffer()).rejects.toThrow(/denied by resource access policy/);
    const remote = { content: [{ image: 'https://example.invalid/logo.png' }], defaultStyle: { font: 'Helvetica' } };
    await expect(pdfMake().createPdf(remote).getBuffer()).rejects.toThrow(/denied by resource access policy/);
  });
});
