import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import type { EconomicGroupBody } from '../../domain/schemas/exposure';
import type { CreateCorporateBody, DocumentDecisionBody } from '../../domain/schemas/operator-corporates';
import type { BackOfficeActInput } from '../../machines/back-office-action';
import { corporateActionOf, corporateActionsMachine } from '../../machines/corporate-actions.machine';
import {
  activateCorporate,
  corporateKeys,
  createCorporate,
  decideCorporateDocument,
  reactivateCorporate,
  rejectCorporate,
  setEconomicGroup,
  suspendCorporate,
  uploadCorporateDocument,
} from '../../services/operator-corporates.service';
import { exposureKeys } from '../../services/operator-exposure.service';

// The corporates' screens' machine wired to their calls and to the query cache: every change is read back from
// the server, so the file, its state and the list move together. (The '-' prefix keeps this file out of the
// route tree.) The corporates' calls take no Idempotency-Key yet; the machine still keeps one per intent.

/** What an upload dialog sends: the PDF and, for the bank statement, its CLABE. */
export interface UploadInput {
  file: File;
  clabe?: string;
}

/** What a reason dialog sends (rejecting or suspending the corporate). */
export interface ReasonInput {
  reason: string;
}

async function nothing(call: Promise<unknown>): Promise<null> {
  await call;
  return null;
}

/** The machine for one screen: `corporateId` is the file's corporate (null on the list), `created` opens the new one. */
export function wireCorporateActions(
  queryClient: QueryClient,
  corporateId: number | null,
  created: (id: number) => void = () => {},
) {
  const act = async ({ intent }: BackOfficeActInput): Promise<string | null> => {
    const gesture = corporateActionOf(intent);
    if (gesture?.action === 'create') {
      const answer = await createCorporate(intent.input as CreateCorporateBody);
      created(answer.id);
      return null;
    }
    if (gesture === null || corporateId === null)
      throw new Error(`unknown corporate action ${intent.action}`);
    switch (gesture.action) {
      case 'upload': {
        const { file, clabe } = intent.input as UploadInput;
        return nothing(
          uploadCorporateDocument(corporateId, {
            kind: gesture.kind,
            file,
            ...(clabe !== undefined ? { clabe } : {}),
          }),
        );
      }
      case 'decide':
        return nothing(
          decideCorporateDocument(corporateId, gesture.documentId, intent.input as DocumentDecisionBody),
        );
      case 'activate':
        return nothing(activateCorporate(corporateId));
      case 'reactivate':
        return nothing(reactivateCorporate(corporateId));
      case 'reject':
        return nothing(rejectCorporate(corporateId, (intent.input as ReasonInput).reason));
      case 'suspend':
        return nothing(suspendCorporate(corporateId, (intent.input as ReasonInput).reason));
      case 'group':
        return nothing(setEconomicGroup(corporateId, intent.input as EconomicGroupBody));
    }
  };
  return corporateActionsMachine.provide({
    actors: { act: fromPromise<string | null, BackOfficeActInput>(({ input }) => act(input)) },
    actions: {
      refresh: () => {
        void queryClient.invalidateQueries({ queryKey: corporateKeys.all });
        // A new economic group regroups the exposure screen's sums.
        void queryClient.invalidateQueries({ queryKey: exposureKeys.all });
      },
    },
  });
}
