import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { TextLine } from './receipts.parser.ts';

type PdfJs = typeof PdfJsModule;

const require = createRequire(import.meta.url);
/** A receipt is one or two pages; anything past this is not read. */
const MAX_PAGES = 2;
/** Rendering scale for scanned pages: about 200 dpi for a receipt-sized page. */
const RENDER_SCALE = 2.8;

let pdfjs: Promise<PdfJs> | null = null;
function loadPdfJs(): Promise<PdfJs> {
  // The legacy build runs on Node 20 without a DOM; it renders through @napi-rs/canvas.
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

function standardFontDataUrl(): string {
  return pathToFileURL(path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep)
    .href;
}

export interface PdfContent {
  /** The text layer as lines, top to bottom (empty for a scanned PDF). */
  lines: TextLine[];
  /** PNG renderings of the pages when there is no text layer to read. */
  images: Buffer[];
}

/** Reads a PDF's text layer; a page without one (a scan) is rendered to an image for OCR instead. */
export async function readPdf(data: Buffer): Promise<PdfContent> {
  const { getDocument } = await loadPdfJs();
  const doc = await getDocument({
    data: new Uint8Array(data),
    standardFontDataUrl: standardFontDataUrl(),
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const lines: TextLine[] = [];
    const images: Buffer[] = [];
    for (let p = 1; p <= Math.min(doc.numPages, MAX_PAGES); p++) {
      const page = await doc.getPage(p);
      const content = await page.getTextContent();
      // Items on one baseline (within 2 points) form a line, read left to right.
      const rows: { y: number; parts: { x: number; end: number; size: number; s: string }[] }[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const [x, y] = [item.transform[4] as number, item.transform[5] as number];
        let row = rows.find((r) => Math.abs(r.y - y) < 2);
        if (!row) rows.push((row = { y, parts: [] }));
        row.parts.push({ x, end: x + item.width, size: Math.abs(item.transform[0] as number) || 10, s: item.str });
      }
      rows.sort((a, b) => b.y - a.y);
      for (const row of rows) {
        row.parts.sort((a, b) => a.x - b.x);
        // Words a space apart stay one phrase; a wide gap (label … amount) becomes a column gap.
        const text = row.parts
          .map((part, i) => (i === 0 ? '' : part.x - row.parts[i - 1]!.end > part.size * 1.5 ? '    ' : ' ') + part.s)
          .join('');
        lines.push({ text, confidence: 1 });
      }
      if (rows.length === 0) {
        const { createCanvas } = await import('@napi-rs/canvas');
        const viewport = page.getViewport({ scale: RENDER_SCALE });
        const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
        const context = canvas.getContext('2d');
        context.fillStyle = '#ffffff';
        context.fillRect(0, 0, canvas.width, canvas.height);
        await page.render({
          canvas: canvas as unknown as HTMLCanvasElement,
          canvasContext: context as unknown as CanvasRenderingContext2D,
          viewport,
        }).promise;
        images.push(canvas.toBuffer('image/png'));
      }
      page.cleanup();
    }
    return { lines, images };
  } finally {
    await doc.destroy();
  }
}
