import { RequestFormPage } from '../components/request-form-page';

/** /new-request: a spending request (docs/product.md §3.3); `?edit=<id>` edits a draft. */
export default function NewRequestPage() {
  return <RequestFormPage variant="simple" />;
}
