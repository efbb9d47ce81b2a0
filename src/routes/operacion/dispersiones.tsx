import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useState } from 'react';
import { DESK_REFUSAL, failureText } from '../../domain/call-failure';
import { ApiError } from '../../services/http';
import { deskQueryOptions } from '../../services/operator-desk.service';
import {
  batchesQueryOptions,
  batchQueryOptions,
  createBatch,
  disbursementKeys,
  downloadBatchLayout,
  uploadBatchResult,
} from '../../services/operator-disbursements.service';
import { DisbursementsPage, type UploadOutcome } from '../../views/operator/disbursements/disbursements-page';

// /operacion/dispersiones/ (decision 0054): approved advances → SPEI batches, the layout and the bank's result.
// The route passes data and callbacks in, so the view imports no service.

export const Route = createFileRoute('/operacion/dispersiones')({
  component: DisbursementsRoute,
});

/** The server's Spanish refusal ({detail, errors}) of a failed call. */
function refusalOf(error: unknown): { message: string; errors: string[] } {
  const failure = error instanceof ApiError ? error : null;
  const body = failure?.body as { errors?: string[] } | null | undefined;
  return { message: failureText(failure, DESK_REFUSAL), errors: body?.errors ?? [] };
}

function DisbursementsRoute() {
  const queryClient = useQueryClient();
  const ready = useQuery(deskQueryOptions('approved'));
  const [batchPage, setBatchPage] = useState(1);
  const batches = useQuery(batchesQueryOptions(batchPage));
  const [openId, setOpenId] = useState<number | null>(null);
  const batch = useQuery({ ...batchQueryOptions(openId ?? 0), enabled: openId !== null });
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['operator', 'desk'] }),
      queryClient.invalidateQueries({ queryKey: disbursementKeys.all }),
    ]);

  const onCreateBatch = async (invoiceIds: number[]) => {
    try {
      const created = await createBatch(invoiceIds, crypto.randomUUID());
      await reload();
      // The new batch is the newest: on the first page.
      setBatchPage(1);
      setOpenId(created.id);
      return null;
    } catch (error) {
      const { message, errors } = refusalOf(error);
      return [message, ...errors].join(' ');
    }
  };
  const onDownloadLayout = async (batchId: number) => {
    try {
      await downloadBatchLayout(batchId);
      return null;
    } catch (error) {
      return refusalOf(error).message;
    }
  };
  const onUploadResult = async (batchId: number, file: File): Promise<UploadOutcome> => {
    try {
      const result = await uploadBatchResult(batchId, file, file.name, crypto.randomUUID());
      await reload();
      return { ok: true, result };
    } catch (error) {
      return { ok: false, ...refusalOf(error) };
    }
  };

  return (
    <DisbursementsPage
      ready={{ status: ready.status, page: ready.data, onRetry: () => void ready.refetch() }}
      batches={{
        status: batches.status,
        page: batches.data,
        pageNumber: batchPage,
        onPage: setBatchPage,
        onRetry: () => void batches.refetch(),
      }}
      openBatch={
        openId === null
          ? null
          : { id: openId, status: batch.status, batch: batch.data, onRetry: () => void batch.refetch() }
      }
      onOpenBatch={setOpenId}
      onCreateBatch={onCreateBatch}
      onDownloadLayout={onDownloadLayout}
      onUploadResult={onUploadResult}
    />
  );
}
