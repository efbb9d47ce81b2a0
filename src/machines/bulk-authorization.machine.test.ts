import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { BulkUploadLine, TemplateUploadResult } from '../domain/schemas/corporates';
import {
  bulkAuthorizationMachine,
  type TemplateUploadInput,
  type ZipUploadInput,
} from './bulk-authorization.machine';

// The upload progress the model test cannot see (decision 0034: happy-dom reports an XMLHttpRequest's upload
// progress only after its answer): the machine itself, with calls that report progress before they answer.

const LINES: BulkUploadLine[] = [{ invoice_id: 7, payment_date: '2030-01-31' }];

/** A call that reports `fractions` while it is open and answers when `release` is called. */
function heldCall<Output, Input extends { onProgress: (fraction: number) => void }>(output: Output) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release: () => release(),
    logic: fromPromise<Output, Input>(async ({ input }) => {
      input.onProgress(0.25);
      input.onProgress(0.75);
      await released;
      return output;
    }),
  };
}

function machineWith(calls: {
  uploadZip?: ReturnType<typeof fromPromise<BulkUploadLine[], ZipUploadInput>>;
  uploadTemplate?: ReturnType<typeof fromPromise<TemplateUploadResult, TemplateUploadInput>>;
}) {
  const stored: unknown[] = [];
  let wentToQuotation = false;
  const machine = bulkAuthorizationMachine.provide({
    actors: calls,
    actions: {
      storeLines: (_, params) => stored.push(params.lines),
      goToQuotation: () => {
        wentToQuotation = true;
      },
    },
  });
  return { machine, stored, wentToQuotation: () => wentToQuotation };
}

describe('bulkAuthorizationMachine upload progress', () => {
  it('shows how much of the ZIP has been sent while it uploads, then stores its lines', async () => {
    const call = heldCall<BulkUploadLine[], ZipUploadInput>(LINES);
    const { machine, stored, wentToQuotation } = machineWith({ uploadZip: call.logic });
    const actor = createActor(machine).start();
    actor.send({ type: 'zip.choose', file: { name: 'facturas.zip', type: 'application/zip' } });
    actor.send({ type: 'date.change', paymentDate: '2030-01-31' });
    actor.send({ type: 'bulk.submit' });
    await waitFor(actor, (snapshot) => snapshot.context.progress === 0.75, { timeout: 15_000 });
    expect(actor.getSnapshot().value).toBe('uploadingZip');
    call.release();
    await waitFor(actor, (snapshot) => snapshot.matches('done'), { timeout: 15_000 });
    expect(stored).toEqual([LINES]);
    expect(wentToQuotation()).toBe(true);
  });

  it('shows how much of the template has been sent while it uploads, and starts again from nothing', async () => {
    const call = heldCall<TemplateUploadResult, TemplateUploadInput>({
      processed_invoices: [],
      validation_errors: { _form: ['Mal'] },
    });
    const { machine } = machineWith({ uploadTemplate: call.logic });
    const actor = createActor(machine).start();
    const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    actor.send({ type: 'template.choose', file: { name: 'plantilla.xlsx', type: xlsx } });
    await waitFor(actor, (snapshot) => snapshot.context.progress === 0.75, { timeout: 15_000 });
    expect(actor.getSnapshot().value).toBe('uploadingTemplate');
    call.release();
    await waitFor(actor, (snapshot) => snapshot.matches('failed'), { timeout: 15_000 });
    expect(actor.getSnapshot().context.messages).toEqual(['Mal']);
    // A second upload starts its progress from nothing, not from the last one's.
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().context.progress).toBeNull();
  });
});
