import { downloadFile } from '@/components/data-table/download';
import { PAYROLL_RUNS_URL } from './payroll-run';

/** `GET /api/payroll/runs/:id/bank-file?format=pain001|csv`: the transfers of an approved or paid run. */
export function downloadBankFile(runId: string, format: 'pain001' | 'csv') {
  return downloadFile(
    `${PAYROLL_RUNS_URL}/${runId}/bank-file?format=${format}`,
    format === 'csv' ? 'payroll.csv' : 'payroll.xml',
  );
}

/** `GET /api/payroll/runs/:id/payslips/:employeeId`: one employee's payslip PDF. */
export function downloadPayslip(runId: string, employeeId: string) {
  return downloadFile(`${PAYROLL_RUNS_URL}/${runId}/payslips/${employeeId}`, 'payslip.pdf');
}
