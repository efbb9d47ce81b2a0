import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { BankStatementResult, UnidentifiedPage } from '../../domain/schemas/bank-statement';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { collectionActionsMachine } from '../../machines/collection-actions.machine';
import {
  applyCredit,
  approveUnidentified,
  assignUnidentified,
  collectionKeys,
  creditsQueryOptions,
  rejectUnidentified,
  unidentifiedQueryOptions,
  uploadBankStatement,
} from '../../services/operator-collections.service';
import { CollectionsPage, statementSummary } from '../../views/operator/collections/collections-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  remoteData,
  useBackOfficeList,
} from './-back-office-list-route';

// /operacion/cobranza/ (decision 0067): the bank's statement, the unidentified-payment queue and the buyers'
// saldo a favor. The route runs the collection-actions machine with the real calls (each money call with the
// intent's Idempotency-Key); the last statement's answer is kept in the query cache for the page to list.

const QUEUE_LIST: BackOfficeListDefinition<Record<string, never>, UnidentifiedPage> = {
  filters: () => ({}),
  query: () => unidentifiedQueryOptions(),
};

export const Route = createFileRoute('/operacion/cobranza')({
  ...backOfficeListRoute(QUEUE_LIST),
  component: CollectionsRoute,
});

function CollectionsRoute() {
  const navigate = Route.useNavigate();
  const screen = useBackOfficeList(QUEUE_LIST, Route.useSearch(), navigate);
  const queryClient = useQueryClient();
  const credits = useQuery(creditsQueryOptions());
  const last = useQuery({
    queryKey: collectionKeys.lastStatement,
    queryFn: () => null as BankStatementResult | null,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const machine = useMemo(
    () =>
      collectionActionsMachine.provide({
        actors: {
          act: fromPromise<string | null, BackOfficeActInput>(
            async ({ input: { intent, idempotencyKey } }) => {
              if (intent.action === 'upload') {
                const file = intent.input as File;
                const result = await uploadBankStatement(file, file.name, idempotencyKey);
                queryClient.setQueryData(collectionKeys.lastStatement, result);
                return statementSummary(result);
              }
              if (intent.id === null) throw new Error(`collection action without a row: ${intent.action}`);
              if (intent.action === 'assign') {
                const { invoice_id } = intent.input as { invoice_id: number };
                const row = await assignUnidentified(intent.id, invoice_id, idempotencyKey);
                return row.state === 'propuesta'
                  ? `Asignación del ${intent.label} propuesta: falta que otro aprobador la apruebe.`
                  : `El ${intent.label} se aplicó a la factura ${invoice_id}.`;
              }
              if (intent.action === 'approve') {
                await approveUnidentified(intent.id, idempotencyKey);
                return `Asignación del ${intent.label} aprobada y aplicada.`;
              }
              if (intent.action === 'reject') {
                const { reason } = intent.input as { reason: string };
                await rejectUnidentified(intent.id, reason);
                return `Asignación del ${intent.label} rechazada: vuelve a pendiente.`;
              }
              const { invoice_id, amount } = intent.input as { invoice_id: number; amount: string };
              return (await applyCredit(invoice_id, amount, idempotencyKey)).message;
            },
          ),
        },
        actions: {
          refresh: () => void queryClient.invalidateQueries({ queryKey: collectionKeys.all }),
        },
      }),
    [queryClient],
  );
  const [snapshot, send] = useMachine(machine);
  return (
    <CollectionsPage
      queue={screen.remote}
      credits={remoteData(credits)}
      lastStatement={last.data ?? null}
      actions={snapshot}
      send={send}
    />
  );
}
