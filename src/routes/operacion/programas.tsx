import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import type { ProposeProgrammeBody, RecordCollectionBody } from '../../domain/schemas/credit-programmes';
import { fieldMessagesOf } from '../../machines/back-office-action';
import {
  approveProgramme,
  corporateOptionsQueryOptions,
  freezeProgramme,
  programmeCallMessage,
  programmeDetailQueryOptions,
  programmesQueryOptions,
  proposeProgramme,
  recordCollection,
  unfreezeProgramme,
} from '../../services/operator-programmes.service';
import { CollectionFieldsRefusal } from '../../views/operator/programmes/collection-dialog';
import {
  type CorporateOption,
  type LoadState,
  type ProgrammeActions,
  ProgrammesPage,
} from '../../views/operator/programmes/programmes-page';

// /operacion/programas/ (issue 19, decision 0052): the route holds the calls and the server cache; the view asks
// the credit-programme machine which gestures this operator may make.
export const Route = createFileRoute('/operacion/programas')({
  loader: ({ context }) => context.queryClient.ensureQueryData(programmesQueryOptions).catch(() => undefined),
  component: ProgrammesRoute,
});

function loadState<T>(query: {
  status: 'pending' | 'error' | 'success';
  data?: T;
  error: unknown;
}): LoadState<T> {
  if (query.status === 'success' && query.data !== undefined) return { status: 'success', data: query.data };
  if (query.status === 'error') return { status: 'error', message: programmeCallMessage(query.error) };
  return { status: 'pending' };
}

/** A call's refusal as the view shows it: the server's Spanish words. */
async function withServerMessage<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw new Error(programmeCallMessage(error));
  }
}

function ProgrammesRoute() {
  const queryClient = useQueryClient();
  const list = useQuery(programmesQueryOptions);
  const corporates = useQuery(corporateOptionsQueryOptions);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const detail = useQuery({ ...programmeDetailQueryOptions(selectedId ?? 0), enabled: selectedId !== null });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['operator', 'programmes'] });

  // One Idempotency-Key per approval click: a retry after a lost answer is the server's first answer.
  const approve = useMutation({ mutationFn: (id: number) => approveProgramme(id, crypto.randomUUID()) });
  // A collection moves money on the ledger: one key per submission, as for approvals.
  const collect = useMutation({
    mutationFn: (body: RecordCollectionBody) => recordCollection(body, crypto.randomUUID()),
  });
  const actions: ProgrammeActions = {
    propose: async (body: ProposeProgrammeBody) => {
      await withServerMessage(() => proposeProgramme(body));
      await refresh();
    },
    approve: async (id) => {
      await withServerMessage(() => approve.mutateAsync(id));
      await refresh();
    },
    freeze: async (id, reason) => {
      await withServerMessage(() => freezeProgramme(id, reason));
      await refresh();
    },
    unfreeze: async (id, reason) => {
      await withServerMessage(() => unfreezeProgramme(id, reason));
      await refresh();
    },
    recordCollection: async (body) => {
      let answer: { message: string };
      try {
        answer = await collect.mutateAsync(body);
      } catch (error) {
        // Per-field refusals (date, amount, sobrepago) go to their fields; anything else is the dialog's alert.
        const fields = fieldMessagesOf(error);
        if (Object.keys(fields).length > 0) throw new CollectionFieldsRefusal(fields);
        throw new Error(programmeCallMessage(error));
      }
      await refresh();
      return answer.message;
    },
  };

  // Corporates from the corporates' list; while it is not there, those that already have a programme.
  const corporateOptions: CorporateOption[] = useMemo(() => {
    if (corporates.data) return corporates.data.map(({ id, name }) => ({ id, name }));
    return (list.data?.results ?? []).map((programme) => ({
      id: programme.corporate_id,
      name: programme.corporate_name,
    }));
  }, [corporates.data, list.data]);

  const listState = loadState({ status: list.status, data: list.data?.results, error: list.error });
  const viewer = list.data?.viewer;
  return (
    <ProgrammesPage
      list={listState}
      onRetry={() => void list.refetch()}
      operator={{ userId: viewer?.id ?? 0, roles: viewer?.roles ?? [] }}
      corporates={corporateOptions}
      selectedId={selectedId}
      onSelect={setSelectedId}
      detail={selectedId === null ? null : loadState(detail)}
      actions={actions}
    />
  );
}
