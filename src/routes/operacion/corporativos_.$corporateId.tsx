import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo } from 'react';
import {
  corporatePdfQueryOptions,
  corporateQueryOptions,
  revokePdfUrlsOnRemoval,
} from '../../services/operator-corporates.service';
import { CorporateDetailPage } from '../../views/operator/corporates/corporate-detail';
import { remoteData } from './-back-office-list-route';
import { wireCorporateActions } from './-corporate-actions';

// /operacion/corporativos/$corporateId (corporativos_ so it is not nested in the list's page): the file.
interface CorporateSearch {
  /** The document whose PDF is open. */
  documento?: number;
}

export const Route = createFileRoute('/operacion/corporativos_/$corporateId')({
  validateSearch: (raw: Record<string, unknown>): CorporateSearch => {
    const documento = Number(raw.documento);
    return Number.isSafeInteger(documento) && documento > 0 ? { documento } : {};
  },
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
  const { documento } = Route.useSearch();
  const navigate = Route.useNavigate();
  const pdf = useQuery(corporatePdfQueryOptions(id, documento ?? null));
  useEffect(() => revokePdfUrlsOnRemoval(queryClient), [queryClient]);
  return (
    <CorporateDetailPage
      detail={
        valid ? remoteData(detail) : { status: 'error', data: undefined, retry: () => void detail.refetch() }
      }
      snapshot={snapshot}
      send={send}
      openDocument={documento ?? null}
      pdf={remoteData(pdf)}
      onOpenDocument={(next) => void navigate({ search: next === null ? {} : { documento: next } })}
    />
  );
}
