import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { corporateQueryOptions, fetchCorporateDocumentPdf } from '../../services/operator-corporates.service';
import { CorporateDetailPage } from '../../views/operator/corporates/corporate-detail';
import { remoteData } from './-back-office-list-route';
import { wireCorporateActions } from './-corporate-actions';

// /operacion/corporativos/$corporateId (corporativos_ so it is not nested in the list's page): the file.
export const Route = createFileRoute('/operacion/corporativos_/$corporateId')({
  component: CorporateRoute,
});

function CorporateRoute() {
  const { corporateId } = Route.useParams();
  // One machine per corporate: another file starts with no gesture in progress.
  return <CorporateScreen key={corporateId} id={Number(corporateId)} />;
}

function CorporateScreen({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const valid = Number.isSafeInteger(id) && id > 0;
  const detail = useQuery({ ...corporateQueryOptions(id), enabled: valid });
  const machine = useMemo(() => wireCorporateActions(queryClient, id), [queryClient, id]);
  const [snapshot, send] = useMachine(machine);
  return (
    <CorporateDetailPage
      detail={
        valid ? remoteData(detail) : { status: 'error', data: undefined, retry: () => void detail.refetch() }
      }
      snapshot={snapshot}
      send={send}
      loadPdf={(documentId) => fetchCorporateDocumentPdf(id, documentId)}
    />
  );
}
