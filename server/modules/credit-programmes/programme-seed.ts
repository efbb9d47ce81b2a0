import dayjs from 'dayjs';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { ISO_DATE_FORMAT } from '../../../src/domain/calendar-date';
import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';

/**
 * The limit the demo world, the scale world and the test worlds give their corporates: far above what their
 * invoices add up to, so every advance they make finds room (tests about room make their own programme).
 */
export const SEED_PROGRAMME_LIMIT = '500000000.00';

/** From the start of last year to the end of the year after next: a seeded world stays valid for a while. */
export function seedProgrammeWindow(today: IsoDate = businessDate(new Date())): {
  startsOn: IsoDate;
  endsOn: IsoDate;
} {
  const day = dayjs(today);
  return {
    startsOn: day.subtract(1, 'year').startOf('year').format(ISO_DATE_FORMAT),
    endsOn: day.add(2, 'year').endOf('year').format(ISO_DATE_FORMAT),
  };
}

/**
 * Active programmes for seeded corporates, written directly: seeds have no two operators to propose and approve
 * (decision 0052). Operators' programmes go through POST operator/programmes/ and its approval. A corporate that
 * already has a programme keeps it.
 */
export async function seedActiveProgrammes(
  db: Db,
  corporateIds: readonly number[],
  options: { limit?: string; startsOn?: IsoDate; endsOn?: IsoDate } = {},
): Promise<void> {
  if (corporateIds.length === 0) return;
  const window = seedProgrammeWindow();
  await db
    .insertInto('credit_programmes')
    .values(
      corporateIds.map((corporateId) => ({
        corporate_id: corporateId,
        limit_amount: options.limit ?? SEED_PROGRAMME_LIMIT,
        starts_on: options.startsOn ?? window.startsOn,
        ends_on: options.endsOn ?? window.endsOn,
        state: 'activo' as const,
      })),
    )
    .onConflict((oc) => oc.column('corporate_id').doNothing())
    .execute();
}
