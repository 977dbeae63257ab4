import json, os
# path, feature, component-file-stem, title, summary, capabilities
S = [
("/new-request","requests","new-request","New Request","Raise a spending request for a purchase, a reimbursement or a vendor payment.",
 ["Title, description, amount and currency (your organization's by default)","Category, department and an optional searchable vendor","Date needed, justification and receipt or attachment upload (images, PDF)","Save as draft or submit; the server runs policy and budget checks and shows the result"]),
("/advanced-request","requests","advanced-request","Advanced Request","A request with line items, cost allocation, foreign currency and recurrence.",
 ["Line items, each with category, amount and tax","Cost allocation across departments by percent (must sum to 100)","Foreign currency with the FX rate applied; advance or reimbursement","Recurring requests (monthly or quarterly, with an end date) and multiple attachments"]),
("/smart-form","requests","smart-form","Smart Request Form","A request form that suggests category, vendor and department as you describe the spend.",
 ["Suggestions learned from your organization's history","Live policy warnings while you type","Budget impact shown before you submit"]),
("/requests","requests","my-requests","My Requests","Your requests with their status, current approver and age.",
 ["Detail view with approval timeline, comments, attachments, policy findings and audit trail","Edit and submit drafts, cancel pending requests","Answer \"information requested\" and resubmit"]),
("/requests-management","requests","requests-management","Requests Management","Every request in your scope, with rich filters, bulk export and payment recording.",
 ["Filter by organization, department, category, vendor, status, date, amount range, over budget or with violations","Bulk export","Mark approved requests paid with payment date and reference","Reassign requests"]),
("/expense-tracking","requests","expense-tracking","Expense Tracking","Spend over time for you, your department, or (finance) any scope.",
 ["Approved and paid amounts by month","Receipt status","Spend against budget"]),
("/approvals","approvals","approvals","Approvals","Your approval queue: requests waiting at a step where you (or someone who delegated to you) approve.",
 ["Approve, reject with a reason, or request information","Bulk approve","Amount, requester, policy findings, budget impact and history on each item","Exactly-once decisions, even when two approvers click at the same moment"]),
("/approvals-management","approvals","approvals-management","Approvals Management","Every in-flight approval in your scope, with SLAs and cycle times.",
 ["Steps past their SLA","Reassign an approver or escalate","Approval cycle time per step and per approver"]),
("/workflow-customization","workflows","workflow-customization","Workflow Builder","Approval workflows per organization: match conditions and ordered steps.",
 ["Conditions on amount range, category, department, over budget and requester role","Steps resolved to a relative role or a named user, \"any one of\" or \"all of\"","SLA in hours with escalation; reorder steps by drag and drop","Validate and simulate a sample request; nobody approves their own request"]),
("/smart-approval-routing","workflows","smart-approval-routing","Smart Approval Routing","Shows the route the engine chose for any request, and why.",
 ["Auto-approval rules for low-risk requests","Out-of-office delegation with date ranges","Balancing among \"any one of\" approvers by queue length","Predicted time to decision from history"]),
("/budget-overrun-approvals","budgets","budget-overrun-approvals","Budget Overrun Approvals","Requests that would push a budget line past its limit, for CFO decision.",
 ["Approve the overrun with a required note","Or reject the request","Committed and actual spend shown for the budget line"]),
("/budget-management","budgets","budget-management","Budget Management","Budget lines per organization, department and category, per period and currency.",
 ["Month, quarter or fiscal-year periods","Copy from last period; import from CSV or XLSX","Alert thresholds (80% and 100% by default) that notify owners"]),
("/budget-vs-actual","budgets","budget-vs-actual","Budget vs Actual","Budget, committed, actual, remaining and variance for a period and scope.",
 ["Percent used per budget line","Chart with drill-down to the requests","Payroll cost included under the Payroll category"]),
("/predictive-budgeting","budgets","predictive-budgeting","Predictive Budgeting","Forecast of each budget line to the end of its period from monthly history.",
 ["Seasonal model with a confidence band","Predicted overrun date","Suggested budget for the next period"]),
("/payroll","payroll","payroll","Payroll Management","Employees and monthly payroll runs per organization.",
 ["Employees with salary, allowances, tax and pension rates and masked bank accounts","Runs move draft, submitted, approved (CFO), paid","Computed gross, deductions and net with manual adjustments","Payslip PDFs and a bank transfer file (CSV)"]),
("/vendor-management","vendors","vendor-management","Vendor Management","The vendor master: who the group pays and on what terms.",
 ["Name, unique tax id, contact, address, payment terms and currency","Masked bank details","Status: pending verification, active or blocked (blocked vendors cannot be used)","Spend to date"]),
("/vendor-aging-report","vendors","vendor-aging-report","Vendor Aging Report","Payables aged by days past due, per vendor, as of a chosen date.",
 ["Current, 1-30, 31-60, 61-90 and over 90 days","Partial payments","Totals in the group currency; export"]),
("/consolidated-financials","reports","consolidated-financials","Consolidated Financials","Group view of spend and payroll per subsidiary per period, in the group currency.",
 ["Translation at the period's average rate (rates editable)","Intercompany requests eliminated and shown separately","Drill-down and export"]),
("/financial-flow","reports","financial-flow","Financial Flow","Where the money goes: organization to department to category to vendor.",
 ["Flow (Sankey) diagram for a period","Amounts on every link","Filters"]),
("/analytics","reports","analytics","Analytics","Spend trends and approval performance per organization and for the group.",
 ["Top categories, vendors and departments","Approval rates and cycle times","Charts with filters"]),
("/smart-analytics","reports","smart-analytics","Smart Analytics","Findings linked to their requests: outliers, duplicates and split purchases.",
 ["Amount outliers within a category and likely duplicates","Split purchases just under an approval threshold","Unusual timing and Benford deviations","Dismiss a finding or turn it into a policy"]),
("/advanced-reporting","reports","advanced-reporting","Advanced Reporting","A report builder with dimensions, measures, filters, charts and tables.",
 ["Dimensions: organization, department, category, vendor, requester, month, status","Measures: sum, count, average","Save, share and schedule reports","Export CSV, XLSX and PDF"]),
("/organization-management","organizations","organization-management","Organization Management","The group and its subsidiaries.",
 ["Name, code and base currency","Address and tax id","Fiscal year start and active flag"]),
("/advanced-organization-management","organizations","advanced-organization-management","Advanced Organization Management","The group hierarchy as a tree, with per-organization settings.",
 ["Move a subsidiary in the tree","Approval thresholds and default workflow per organization","Intercompany links and FX rates"]),
("/department-management","organizations","department-management","Department Management","Departments per organization.",
 ["Name and cost center code","Department head","Parent department"]),
("/category-management","organizations","category-management","Category Management","Expense categories and their accounting.",
 ["Name, code, GL account and parent","Per-request limit","Receipt-required threshold and active flag"]),
("/user-management","users","user-management","User Management","Create, edit, activate and deactivate users.",
 ["Organization, department, manager and role","Status badges: active, pending, inactive"]),
("/enhanced-user-management","users","enhanced-user-management","Enhanced User Management","Bulk user operations and user detail.",
 ["Bulk import and export (CSV)","Bulk activate, deactivate and role change","User detail with sessions, activity and audit"]),
("/registration-management","users","registration-management","Registration Requests","Review access requests from the public registration form.",
 ["Pending, approved and rejected requests","Approve with final role, organization and department (creates the user with a temporary password)","Reject with a reason"]),
("/role-management","users","role-management","Role Management","System roles, their permissions and who holds each.",
 ["Permissions per role","Members of each role","Change roles (requires recent password confirmation)"]),
("/custom-roles","users","custom-roles","Custom Roles","Define roles as sets of permissions with a scope.",
 ["Permissions from the catalogue","Scope: own department, own organization or group","Assign to users; enforced by the server"]),
("/user-password-management","users","user-password-management","User Password Management","Reset passwords and see password and 2FA status.",
 ["Reset a user's password to a temporary one (shown once)","Force a change at next login","Password age and 2FA status"]),
("/user-sessions","users","user-sessions","User Sessions","Every active device session in the group.",
 ["User, device, browser and IP","Created and last seen","Revoke one session or all of a user's"]),
("/policy-management","policies","policy-management","Policy Management","Expense rules and what happens when a request breaks them.",
 ["Per-category limits per request and per month","Receipt required above an amount, blocked vendors, weekend spend, duplicate detection","Actions: warn, require justification, block"]),
("/enhanced-policy-management","policies","enhanced-policy-management","Enhanced Policy Management","A rule builder with versions and simulation.",
 ["Conditions on any request field with AND/OR","Priority and effective dates; versions","Simulation against the last N months of requests"]),
("/security","security","security-settings","Security Settings","Password policy, sessions, 2FA and lockout settings.",
 ["Password policy and session and idle lifetime","Two-factor required per role","Lockout threshold and authorized e-mail domains"]),
("/auth-security","security","auth-security","Auth Security","Sign-in activity and account protection.",
 ["Successful and failed sign-ins with IP and device","Locked accounts with unlock","2FA adoption per role"]),
("/audit-history","security","audit-history","Audit History","Every change to money, access and settings.",
 ["Who, what, when, from where, before and after","Append-only and hash-chained with a verify-integrity action","Filters and export"]),
("/backup-management","security","backup-management","Backup Management","Database backups and their schedule.",
 ["List backups with time, size and checksum","Create now, schedule and retention","Download and delete"]),
("/backup-recovery","security","backup-recovery","Backup Recovery","Restore the database from a backup.",
 ["Checksum verification and dry-run validation","Explicit confirmation","The restore itself is audited"]),
("/error-reports","security","error-reports","Error Reports","Uncaught errors and render failures reported by the web app.",
 ["Grouped by fingerprint with counts, first and last seen","User, route and browser","Mark resolved"]),
("/communications","communications","communications","Communications","Announcements and direct conversations.",
 ["Announcements to everyone, an organization or a department","Direct conversations between users","Unread counts and live delivery"]),
("/notifications","notifications","notifications","Notifications","Your notifications about requests, budgets, payroll and sign-ins.",
 ["Submitted, approved, rejected, information requested and comments","Budget thresholds, payroll to approve, registrations, new-device sign-ins","Mark read and mark all read"]),
("/notification-settings","notifications","notification-settings","Notification Settings","Choose how you hear about each event.",
 ["Per event and per channel (in-app, e-mail) on or off","E-mail digest frequency"]),
("/calendar-integration","integrations","calendar-integration","Calendar Integration","Your approval, payroll and budget dates in your calendar.",
 ["A private iCalendar subscribe link","Approval due dates, payroll dates and budget period ends","Import an .ics file to create draft requests from events"]),
("/integration-ecosystem","integrations","integration-ecosystem","API Integrations","API keys, webhooks and accounting exports.",
 ["Scoped API keys, stored hashed, shown once, revocable","Signed outgoing webhooks with retries and a delivery log","Accounting journal export (CSV) and the OpenAPI documentation"]),
("/tutorials","help","tutorials","Tutorials","How-to articles shipped with the app.",
 ["Searchable articles","Step-by-step guides for each area"]),
("/onboarding-tutorials","help","onboarding-tutorials","Onboarding Tutorials","A role-based checklist that completes itself from real events.",
 ["\"Submit your first request\", \"Set up two-factor\", \"Approve a request\" and more","Progress per user"]),
("/feature-suggestions","help","feature-suggestions","Feature Suggestions","Submit ideas, vote and comment.",
 ["One vote per user","Comments","Status set by admins: under review, planned, done, declined"]),
("/executive-ai-copilot","assistant","executive-ai-copilot","AI Copilot","Ask questions about the live data and get numbers, tables and links.",
 ["\"How much did Meridian Energy spend on travel last quarter?\"","\"Top 5 vendors this year\", \"Which budgets are above 90%?\"","\"What is waiting for my approval?\"","Works offline and respects your permissions"]),
("/ai-search","assistant","ai-search","AI Search","One box across requests, vendors, users, budgets, policies and tutorials.",
 ["Typo-tolerant, ranked results","Filters in plain words (\"travel over 500 last month in Logistics\")"]),
("/receipt-photo-ai","assistant","receipt-photo-ai","Receipt Photo AI","Upload or photograph a receipt and turn it into a request.",
 ["Offline OCR extracts merchant, date, total, tax and currency","Review the fields, then create the request with the receipt attached"]),
("/voice-to-expense","assistant","voice-to-expense","Voice to Expense","Speak or type a sentence and get a draft request.",
 ["Browser speech recognition where available","Amount, currency, date, category and vendor parsed into a draft to review"]),
("/expense-coaching","assistant","expense-coaching","Expense Coaching","Personal insights on your spending and policy findings.",
 ["Your policy findings over time and returned requests","Your spend compared with your department's median","Concrete tips"]),
("/advanced-ai-demo","assistant","advanced-ai-demo","Advanced AI Demo","A guided tour that runs each AI feature on sample inputs.",
 ["Copilot, search, receipt reading and voice parsing","Smart form, smart analytics, predictive budgeting and routing"]),
]
root='/work/main/apps/web/src/features'
def pascal(stem): return ''.join(p.capitalize() for p in stem.split('-'))
out=[]
for path,feat,stem,title,summary,caps in S:
    d=f'{root}/{feat}/pages'; os.makedirs(d,exist_ok=True)
    comp=pascal(stem)+'Page'
    caps_ts=',\n'.join('        '+json.dumps(c) for c in caps)
    src=f"""import {{ ScaffoldScreen }} from '@/components/scaffold-screen';

export default function {comp}() {{
  return (
    <ScaffoldScreen
      title={json.dumps(title)}
      summary={json.dumps(summary)}
      capabilities={{[
{caps_ts},
      ]}}
    />
  );
}}
"""
    open(f'{d}/{stem}-page.tsx','w').write(src)
    out.append((path,feat,stem,title))
json.dump(out,open('/work/main/apps/web/scripts-tmp/routes.json','w'),indent=1)
print(len(S))
