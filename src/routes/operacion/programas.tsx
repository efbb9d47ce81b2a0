import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo, useState } from 'react';
import { fromPromise } from 'xstate';
import type {
  ProgrammeReasonBody,
  ProposeProgrammeBody,
  RecordCollectionBody,
} from '../../domain/schemas/credit-programmes';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { programmeActionsMachine } from '../../machines/programme-actions.machine';
import {
  approveProgramme,
  corporateOptionsQueryOptions,
  freezeProgramme,
  programmeDetailQueryOptions,
  programmesQueryOptions,
  proposeProgramme,
  recordCollection,
  unfreezeProgramme,
} from '../../services/operator-programmes.service';
import {
  type CorporateOption,
  PROGRAMME_OUTCOMES,
  type ProgrammeAction,
  ProgrammesPage,
} from '../../views/operator/programmes/programmes-page';
import { remoteData, STARTED_BY_LOADER } from './-back-office-list-route';

// /operacion/programas/ (issue 19, decision 0052): the route holds the calls and the server cache and runs the
// programme-actions machine (decision 0064); the view asks the credit-programme machine which gestures this
// operator may make and renders the gesture's state.
export const Route = createFileRoute('/operacion/programas')({
  // Not awaited, as the lists' loaders: the page shows its spinner; a cached list is refreshed (prefetchQuery asks
  // again for stale data, ensureQueryData would not) and the component reads this answer (STARTED_BY_LOADER).
  loader: ({ context }) => void context.queryClient.prefetchQuery(programmesQueryOptions),
  component: ProgrammesRoute,
});

/** One gesture's call; approvals and collections move money, so they carry the intent's Idempotency-Key. */
async function act({ intent, idempotencyKey }: BackOfficeActInput): Promise<string | null> {
  const id = intent.id ?? 0;
  switch (intent.action as ProgrammeAction) {
    case 'propose':
      await proposeProgramme(intent.input as ProposeProgrammeBody);
      return PROGRAMME_OUTCOMES.propose;
    case 'approve':
      await approveProgramme(id, idempotencyKey);
      return PROGRAMME_OUTCOMES.approve(intent.label);
    case 'freeze':
      await freezeProgramme(id, (intent.input as ProgrammeReasonBody).reason);
      return PROGRAMME_OUTCOMES.freeze;
    case 'unfreeze':
      await unfreezeProgramme(id, (intent.input as ProgrammeReasonBody).reason);
      return PROGRAMME_OUTCOMES.unfreeze;
    case 'collect':
      return (await recordCollection(intent.input as RecordCollectionBody, idempotencyKey)).message;
  }
}

/** The page's machine bound to the calls and to this router's cache of programmes. */
function wiredProgrammeActions(queryClient: QueryClient) {
  return programmeActionsMachine.provide({
    actors: { act: fromPromise<string | null, BackOfficeActInput>(({ input }) => act(input)) },
    actions: { refresh: () => void queryClient.invalidateQueries({ queryKey: ['operator', 'programmes'] }) },
  });
}

function ProgrammesRoute() {
  const queryClient = useQueryClient();
  const list = useQuery({ ...programmesQueryOptions, ...STARTED_BY_LOADER });
  const corporates = useQuery(corporateOptionsQueryOptions);
  // Which programme's ledger panel is open: presentation, not a call's state.
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const detail = useQuery({ ...programmeDetailQueryOptions(selectedId ?? 0), enabled: selectedId !== null });
  const machine = useMemo(() => wiredProgrammeActions(queryClient), [queryClient]);
  const [snapshot, send] = useMachine(machine);

  // Corporates from the corporates' list; while it is not there, those that already have a programme.
  const corporateOptions: CorporateOption[] = useMemo(() => {
    if (corporates.data) return corporates.data.map(({ id, name }) => ({ id, name }));
    return (list.data?.results ?? []).map((programme) => ({
      id: programme.corporate_id,
      name: programme.corporate_name,
    }));
  }, [corporates.data, list.data]);

  const viewer = list.data?.viewer;
  return (
    <ProgrammesPage
      list={remoteData(list)}
      operator={{ userId: viewer?.id ?? 0, roles: viewer?.roles ?? [] }}
      corporates={corporateOptions}
      selectedId={selectedId}
      onSelect={setSelectedId}
      detail={selectedId === null ? null : remoteData(detail)}
      actions={{ snapshot, send }}
    />
  );
}
