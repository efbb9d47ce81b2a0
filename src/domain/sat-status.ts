/** SAT link (vinculación SAT) status codes (spec §4). */
export const SatStatus = {
  SENT: 10,
  DONT_SENT: 20,
  AUTHORIZED: 30,
  UNAUTHORIZED: 40,
} as const;

export type SatStatusName = keyof typeof SatStatus;
export type SatStatusCode = (typeof SatStatus)[SatStatusName];

export const SAT_STATUS_CODES: readonly SatStatusCode[] = Object.values(SatStatus);

export const SAT_STATUS_LABELS: Readonly<Record<SatStatusCode, string>> = {
  [SatStatus.SENT]: 'En revisión',
  [SatStatus.DONT_SENT]: 'Sin vincular',
  [SatStatus.AUTHORIZED]: 'Autorizada',
  [SatStatus.UNAUTHORIZED]: 'Rechazada',
};

/** Warning shown on the SAT credentials form after a rejected link (spec §4). */
export const SAT_LINK_REJECTED_WARNING = 'La última solicitud de vinculación fue rechazada';

/** True for one of the four codes. */
export function isSatStatusCode(value: unknown): value is SatStatusCode {
  return typeof value === 'number' && (SAT_STATUS_CODES as readonly number[]).includes(value);
}

/** Only an authorized link unlocks the provider dashboard (spec §2, §6). */
export function isSatLinkAuthorized(status: SatStatusCode): boolean {
  return status === SatStatus.AUTHORIZED;
}

/** The credentials form shows while not linked or rejected; hidden once sent or authorized (spec §4). */
export function canSubmitSatCredentials(status: SatStatusCode): boolean {
  return status === SatStatus.DONT_SENT || status === SatStatus.UNAUTHORIZED;
}
