import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { API_DIR } from './child-process.ts';

// Libraries that only some requests need; the server loads each on its first use (lib/on-first-use.ts).
const FIRST_USE = [
  'exceljs',
  'pdfmake',
  'date-holidays',
  'chrono-node',
  'xmlbuilder2',
  '@zxcvbn-ts/language-common',
  'sharp',
  'nodemailer',
  'qrcode',
];

/** Which of FIRST_USE a fresh process has loaded after running `script` (an ES module body). */
function loadedAfter(script: string): string[] {
  const probe = `import { createRequire } from 'node:module';
${script}
const loaded = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify(${JSON.stringify(FIRST_USE)}.filter((name) => loaded.some((file) => file.includes('/node_modules/' + name + '/')))));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', probe], {
    cwd: API_DIR,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!) as string[];
}

describe('libraries loaded on first use', () => {
  it('the server modules load none of them at start', () => {
    expect(loadedAfter(`await import('./src/app.ts');`)).toEqual([]);
  });

  it('each loads when it is first asked for', () => {
    expect(loadedAfter(`const { excel } = await import('./src/lib/excel.ts'); new (excel().Workbook)();`)).toEqual([
      'exceljs',
    ]);
  });
});
