import { ScaffoldScreen } from '@/components/scaffold-screen';

export default function PayrollPage() {
  return (
    <ScaffoldScreen
      title="Payroll Management"
      summary="Employees and monthly payroll runs per organization."
      capabilities={[
        "Employees with salary, allowances, tax and pension rates and masked bank accounts",
        "Runs move draft, submitted, approved (CFO), paid",
        "Computed gross, deductions and net with manual adjustments",
        "Payslip PDFs and a bank transfer file (CSV)",
      ]}
    />
  );
}
