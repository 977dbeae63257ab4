import { FEATURE_SUGGESTION_STATUS_LABELS, type FeatureSuggestionStatus } from '@outlay/contracts/feature-suggestions';
import { Badge } from '@/components/ui/badge';

const VARIANT: Record<FeatureSuggestionStatus, 'default' | 'primary' | 'purple' | 'success' | 'danger'> = {
  open: 'default',
  under_review: 'primary',
  planned: 'purple',
  done: 'success',
  declined: 'danger',
};

export function SuggestionStatusBadge({ status }: { status: FeatureSuggestionStatus }) {
  return <Badge variant={VARIANT[status]}>{FEATURE_SUGGESTION_STATUS_LABELS[status]}</Badge>;
}
