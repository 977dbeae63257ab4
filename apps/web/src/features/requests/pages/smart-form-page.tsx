import { RequestFormPage } from '../components/request-form-page';

/**
 * /smart-form: the request form with category, vendor and department suggested from the
 * organization's past requests as the description is typed (docs/product.md §3.3), the live policy checks
 * and the budget impact; `?edit=<id>` edits a draft.
 */
export default function SmartFormPage() {
  return <RequestFormPage variant="smart" />;
}
