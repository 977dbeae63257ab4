import { access, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';

const require = createRequire(import.meta.url);

/** Two workers at most: this is a 2-core box shared with the API, which must keep answering. */
const WORKERS = 2;
/** The integer-quantised LSTM model: 3 MB, the same accuracy on printed text as the 10 MB one. */
const MODEL = '4.0.0_best_int';

export interface OcrLine {
  text: string;
  confidence: number;
}
export interface OcrResult {
  text: string;
  lines: OcrLine[];
  confidence: number;
}

let pool: Promise<{ scheduler: Scheduler; size: number }> | null = null;
/** Where tesseract keeps its unpacked traineddata: under DATA_DIR, read as config.ts reads it. */
let cacheDir = path.resolve(process.env.DATA_DIR ?? 'data', 'ocr', MODEL);

/** Tests and the bench point the cache elsewhere. */
export function configureOcr(dataDir: string): void {
  cacheDir = path.join(dataDir, 'ocr', MODEL);
}

/**
 * The English traineddata ships in @tesseract.js-data/eng and the wasm core in tesseract.js-core,
 * both read from node_modules: nothing is fetched at run time (langPath is a folder, not a URL).
 */
function languagePath(): string {
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), MODEL);
}

/**
 * Unpacks the shipped model into the cache once, through a temporary file and a rename, so two
 * processes (test files, instances sharing DATA_DIR) never read a half-written cache; the workers
 * then only read it.
 */
async function ensureCache(): Promise<void> {
  const target = path.join(cacheDir, 'eng.traineddata');
  try {
    await access(target);
    return;
  } catch {
    // not unpacked yet
  }
  await mkdir(cacheDir, { recursive: true });
  const temporary = `${target}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, gunzipSync(await readFile(path.join(languagePath(), 'eng.traineddata.gz'))));
  await rename(temporary, target);
}

async function newWorker() {
  await ensureCache();
  const worker = await createWorker('eng', OEM.LSTM_ONLY, {
    langPath: languagePath(),
    cachePath: cacheDir,
    cacheMethod: 'readOnly',
    gzip: true,
  });
  // A receipt is one column of short lines; keeping word gaps lets "Total      12.40" stay one line.
  await worker.setParameters({
    tessedit_pageseg_mode: PSM.SINGLE_COLUMN,
    preserve_interword_spaces: '1',
    user_defined_dpi: '300',
  });
  return worker;
}

/** The pool is made on first use (a server that never reads a receipt never loads 3 MB of model) and reused. */
function getPool(): Promise<{ scheduler: Scheduler; size: number }> {
  pool ??= (async () => {
    const scheduler = createScheduler();
    scheduler.addWorker(await newWorker());
    // The second worker loads in the background; the first answers meanwhile.
    void newWorker()
      .then((w) => scheduler.addWorker(w))
      .catch(() => {});
    return { scheduler, size: WORKERS };
  })().catch((error: unknown) => {
    pool = null;
    throw error;
  });
  return pool;
}

interface Word {
  text: string;
  confidence: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/**
 * Rows rebuilt from the words' boxes: a receipt prints a label far left and its amount far right,
 * which the OCR's own layout analysis sometimes reads as two columns. Words whose vertical
 * centres fall within half a line of each other form one row, read left to right.
 */
export function rowsOf(words: Word[]): OcrLine[] {
  const sorted = [...words].sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2);
  const rows: { mid: number; height: number; words: Word[] }[] = [];
  for (const w of sorted) {
    const mid = (w.y0 + w.y1) / 2;
    const height = Math.max(1, w.y1 - w.y0);
    const row = rows.find((r) => Math.abs(r.mid - mid) < Math.max(r.height, height) * 0.5);
    if (row) {
      row.words.push(w);
      row.mid = (row.mid * (row.words.length - 1) + mid) / row.words.length;
      row.height = Math.max(row.height, height);
    } else rows.push({ mid, height, words: [w] });
  }
  rows.sort((a, b) => a.mid - b.mid);
  return rows.map((row) => {
    row.words.sort((a, b) => a.x0 - b.x0);
    let text = '';
    let last: Word | null = null;
    for (const w of row.words) {
      if (last) {
        const gap = w.x0 - last.x1;
        // A monospaced point leaves a wide gap, and the OCR splits "$2.29" into "$2." and "29"
        // (or "$2" and ".29"): a number broken at its separator is joined again.
        const brokenNumber =
          (/\d[.,:]$/.test(last.text) && /^\d{1,2}(?!\d)/.test(w.text)) ||
          (/\d$/.test(last.text) && /^[.,:]\d{1,2}(?!\d)/.test(w.text));
        // A wide gap separates a label from its amount; a hair's gap is one token split in two.
        text +=
          brokenNumber && gap < row.height * 1.5
            ? ''
            : gap > row.height * 2
              ? '    '
              : gap > row.height * 0.25
                ? ' '
                : '';
      }
      text += w.text;
      last = w;
    }
    const confidence = row.words.reduce((sum, w) => sum + w.confidence, 0) / row.words.length;
    return { text, confidence };
  });
}

export async function recognize(image: Buffer): Promise<OcrResult> {
  const { scheduler } = await getPool();
  const { data } = await scheduler.addJob('recognize', image, {}, { text: true, blocks: true });
  const words: Word[] = [];
  for (const block of data.blocks ?? []) {
    for (const paragraph of block.paragraphs) {
      for (const line of paragraph.lines) {
        for (const w of line.words) {
          if (w.text.trim() === '') continue;
          words.push({
            text: w.text,
            confidence: w.confidence / 100,
            x0: w.bbox.x0,
            x1: w.bbox.x1,
            y0: w.bbox.y0,
            y1: w.bbox.y1,
          });
        }
      }
    }
  }
  const lines = rowsOf(words);
  return { text: lines.map((l) => l.text).join('\n'), lines, confidence: data.confidence / 100 };
}

/** Stops the workers (tests and a graceful shutdown). */
export async function closeOcr(): Promise<void> {
  const current = pool;
  pool = null;
  if (current) await (await current.catch(() => null))?.scheduler.terminate();
}
