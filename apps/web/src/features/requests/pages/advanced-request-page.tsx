import { RequestFormPage } from '../components/request-form-page';

/** /advanced-request: line items, allocation, recurrence on top of the new-request form. */
export default function AdvancedRequestPage() {
  return <RequestFormPage variant="advanced" />;
}
