import { AUDIT_TRAIL_EMPTY_HEADER, auditTrailEmptyMessage, auditTrailFileName } from '../domain/audit-trail';
import { XLSX_MEDIA_TYPE } from '../domain/bulk-upload';
import type { IsoDate } from '../domain/calendar-date';
import type { Role } from '../domain/schemas/session-user';
import { type DownloadProgress, readBody } from './advanced-invoices.service';
import { INVOICES_API_URL } from './api-config';
import { ApiError, requestFile } from './http';

// The audit trail export (decision 0044): the provider's issued invoices, the corporate's received ones.
const PATHS: Record<Role, string> = {
  provider: '/providers/audit-trail/',
  corporate: '/corporates/audit-trail/',
};

/** A date range of the export, both days included. */
export interface AuditRange {
  from: IsoDate;
  to: IsoDate;
}

/**
 * GET …/audit-trail/?from&to: the XLSX as a File named like the server names it, read chunk by chunk for the
 * progress. A range with no event downloads nothing: it fails with the panel's empty message (a 200 whose
 * `detail` the download machine shows), so the user is not handed a file of headers.
 */
export async function downloadAuditTrail(
  role: Role,
  range: AuditRange,
  onProgress: (progress: DownloadProgress) => void,
): Promise<File> {
  const query = new URLSearchParams({ from: range.from, to: range.to });
  const response = await requestFile(`${INVOICES_API_URL}${PATHS[role]}?${query}`, XLSX_MEDIA_TYPE);
  if (response.headers.get(AUDIT_TRAIL_EMPTY_HEADER) === 'true') {
    await response.body?.cancel();
    throw new ApiError(response.status, { detail: auditTrailEmptyMessage(range.from, range.to) });
  }
  let blob: Blob;
  try {
    blob = await readBody(response, onProgress);
  } catch (error) {
    // The connection dropped mid-body.
    console.warn('audit trail download interrupted', error);
    throw new ApiError(0, null);
  }
  return new File([blob], auditTrailFileName(range.from, range.to), { type: XLSX_MEDIA_TYPE });
}
