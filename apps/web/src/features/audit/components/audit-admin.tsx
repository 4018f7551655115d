import { AuditLog } from '../../../components/audit/audit-log';
import { useAuditLog } from '../../../entities/audit/api/get-audit-items';

/** Admin › Audit (docs/product.md §2): the organisation's audit log, for every member. */
export function AuditAdmin() {
  const audit = useAuditLog();
  return <AuditLog audit={audit} emptyText="Nothing has been recorded yet." />;
}
