import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import {
  activateCorporate,
  corporateKeys,
  corporateQueryOptions,
  decideCorporateDocument,
  fetchCorporateDocumentPdf,
  reactivateCorporate,
  rejectCorporate,
  suspendCorporate,
  uploadCorporateDocument,
} from '../../services/operator-corporates.service';
import type { ActionResult } from '../../views/operator/corporates/action-result';
import { CorporateDetailPage } from '../../views/operator/corporates/corporate-detail';
import { actionResult } from './-corporate-actions';

// /operacion/corporativos/$corporateId (corporativos_ so it is not nested in the list's page): the file.
export const Route = createFileRoute('/operacion/corporativos_/$corporateId')({
  component: CorporateRoute,
});

function CorporateRoute() {
  const { corporateId } = Route.useParams();
  const id = Number(corporateId);
  const queryClient = useQueryClient();
  const detail = useQuery({ ...corporateQueryOptions(id), enabled: Number.isSafeInteger(id) && id > 0 });
  // Every change is read back from the server: the file, the state and the list all move together.
  const refresh = async <T,>(call: () => Promise<T>): Promise<ActionResult> => {
    const result = await actionResult(call);
    if (result.ok) await queryClient.invalidateQueries({ queryKey: corporateKeys.all });
    return result.ok ? { ok: true } : result;
  };
  return (
    <CorporateDetailPage
      detail={detail.data}
      isPending={detail.isPending && detail.fetchStatus !== 'idle'}
      isError={detail.isError || !Number.isSafeInteger(id)}
      onRetry={() => detail.refetch()}
      actions={{
        upload: (input) => refresh(() => uploadCorporateDocument(id, input)),
        decide: (documentId, body) => refresh(() => decideCorporateDocument(id, documentId, body)),
        activate: () => refresh(() => activateCorporate(id)),
        reject: (reason) => refresh(() => rejectCorporate(id, reason)),
        suspend: (reason) => refresh(() => suspendCorporate(id, reason)),
        reactivate: () => refresh(() => reactivateCorporate(id)),
        loadPdf: (documentId) => fetchCorporateDocumentPdf(id, documentId),
      }}
    />
  );
}
