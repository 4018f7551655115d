import { AuditLog } from '../../../components/audit/audit-log';
import { useFeatureAudit } from '../../../entities/audit/api/get-audit-items';

/** The feature page's Audit tab: the feature's entries of the audit log. */
export function FeatureAudit({ projectKey, featureKey }: { projectKey: string; featureKey: string }) {
  const audit = useFeatureAudit(projectKey, featureKey);
  return <AuditLog audit={audit} emptyText="Nothing has been recorded for this feature yet." />;
}
