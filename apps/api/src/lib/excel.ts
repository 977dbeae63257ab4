import type ExcelJS from 'exceljs';
import { onFirstUse } from './on-first-use.ts';

/** ExcelJS, loaded when a spreadsheet is first read or written. */
export const excel = onFirstUse<typeof ExcelJS>('exceljs');
