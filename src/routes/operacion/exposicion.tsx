import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { ProposeCapBody } from '../../domain/schemas/exposure';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { exposureActionsMachine } from '../../machines/exposure-actions.machine';
import {
  approveCap,
  capsQueryOptions,
  exposureQueryOptions,
  proposeCap,
  rejectCap,
} from '../../services/operator-exposure.service';
import {
  EXPOSURE_OUTCOMES,
  type ExposureAction,
  ExposurePage,
} from '../../views/operator/exposure/exposure-page';
import { remoteData, STARTED_BY_LOADER } from './-back-office-list-route';

// /operacion/exposicion/ (issue 34, decision 0069): the route holds the calls and the server cache and runs the
// exposure-actions machine (decision 0064); the view asks the concentration-cap machine which gestures this
// operator may make and renders the gesture's state.
export const Route = createFileRoute('/operacion/exposicion')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(exposureQueryOptions);
    void context.queryClient.prefetchQuery(capsQueryOptions);
  },
  component: ExposureRoute,
});

async function act({ intent, idempotencyKey }: BackOfficeActInput): Promise<string | null> {
  const id = intent.id ?? 0;
  switch (intent.action as ExposureAction) {
    case 'propose':
      await proposeCap(intent.input as ProposeCapBody);
      return EXPOSURE_OUTCOMES.propose;
    case 'approve':
      await approveCap(id, idempotencyKey);
      return EXPOSURE_OUTCOMES.approve(intent.label);
    case 'reject':
      await rejectCap(id);
      return EXPOSURE_OUTCOMES.reject(intent.label);
  }
}

function wiredExposureActions(queryClient: QueryClient) {
  return exposureActionsMachine.provide({
    actors: { act: fromPromise<string | null, BackOfficeActInput>(({ input }) => act(input)) },
    actions: { refresh: () => void queryClient.invalidateQueries({ queryKey: ['operator', 'exposure'] }) },
  });
}

function ExposureRoute() {
  const queryClient = useQueryClient();
  const report = useQuery({ ...exposureQueryOptions, ...STARTED_BY_LOADER });
  const caps = useQuery({ ...capsQueryOptions, ...STARTED_BY_LOADER });
  const machine = useMemo(() => wiredExposureActions(queryClient), [queryClient]);
  const [snapshot, send] = useMachine(machine);
  return <ExposurePage report={remoteData(report)} caps={remoteData(caps)} actions={{ snapshot, send }} />;
}
