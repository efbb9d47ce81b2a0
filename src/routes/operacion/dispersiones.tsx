import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, useRouter } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { BatchPage } from '../../domain/schemas/control-desk';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { disbursementActionsMachine } from '../../machines/disbursement-actions.machine';
import { deskQueryOptions } from '../../services/operator-desk.service';
import {
  batchesQueryOptions,
  batchQueryOptions,
  createBatch,
  disbursementKeys,
  downloadBatchLayout,
  uploadBatchResult,
} from '../../services/operator-disbursements.service';
import {
  DisbursementsPage,
  layoutDownloaded,
  resultSummary,
} from '../../views/operator/disbursements/disbursements-page';
import {
  type BackOfficeListDefinition,
  backOfficeListRoute,
  remoteData,
  useBackOfficeList,
} from './-back-office-list-route';

// /operacion/dispersiones/ (decision 0054): approved advances → SPEI batches, the layout and the bank's result.
// The batches' page (`page`) and the open batch (`lote`) live in the URL; the route runs the disbursement-actions
// machine with the real calls (each money call with the intent's Idempotency-Key), so the view imports no service.

interface BatchFilters {
  /** The batch whose orders are open. */
  lote?: number;
}

const BATCH_LIST: BackOfficeListDefinition<BatchFilters, BatchPage> = {
  filters: (raw) => {
    const lote = Number(raw.lote);
    return Number.isSafeInteger(lote) && lote > 0 ? { lote } : {};
  },
  query: (_, page) => batchesQueryOptions(page),
};

export const Route = createFileRoute('/operacion/dispersiones')({
  ...backOfficeListRoute(BATCH_LIST),
  component: DisbursementsRoute,
});

function DisbursementsRoute() {
  const navigate = Route.useNavigate();
  const screen = useBackOfficeList(BATCH_LIST, Route.useSearch(), navigate);
  const queryClient = useQueryClient();
  const router = useRouter();
  const ready = useQuery(deskQueryOptions('approved'));
  const openId = screen.filters.lote ?? null;
  const batch = useQuery({ ...batchQueryOptions(openId ?? 0), enabled: openId !== null });
  const machine = useMemo(
    () =>
      disbursementActionsMachine.provide({
        actors: {
          act: fromPromise<string | null, BackOfficeActInput>(
            async ({ input: { intent, idempotencyKey } }) => {
              if (intent.action === 'createBatch') {
                const created = await createBatch(intent.input as readonly number[], idempotencyKey);
                // The new batch is the newest: on the first page, opened.
                void router.navigate({ to: '/operacion/dispersiones/', search: { lote: created.id } });
                return 'Lote creado.';
              }
              if (intent.id === null)
                throw new Error(`disbursement action without a batch: ${intent.action}`);
              if (intent.action === 'download') {
                await downloadBatchLayout(intent.id);
                return layoutDownloaded(intent.id);
              }
              const file = intent.input as File;
              return resultSummary(await uploadBatchResult(intent.id, file, file.name, idempotencyKey));
            },
          ),
        },
        actions: {
          refresh: () => {
            void queryClient.invalidateQueries({ queryKey: ['operator', 'desk'] });
            void queryClient.invalidateQueries({ queryKey: disbursementKeys.all });
          },
        },
      }),
    [queryClient, router],
  );
  const [snapshot, send] = useMachine(machine);

  return (
    <DisbursementsPage
      ready={remoteData(ready)}
      batches={screen.remote}
      page={screen.page}
      onPage={screen.setPage}
      openBatch={openId === null ? null : { id: openId, remote: remoteData(batch) }}
      onOpenBatch={(id) =>
        void navigate({
          search: { ...(screen.page > 1 ? { page: screen.page } : {}), ...(id === null ? {} : { lote: id }) },
        })
      }
      actions={snapshot}
      send={send}
    />
  );
}
