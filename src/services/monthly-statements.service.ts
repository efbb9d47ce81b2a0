import { XLSX_MEDIA_TYPE } from '../domain/bulk-upload';
import {
  type MonthlyStatementFile,
  type MonthlyStatementFormat,
  monthlyStatementFileName,
} from '../domain/monthly-statements';
import { MonthlyStatementList } from '../domain/schemas/monthly-statements';
import type { Role } from '../domain/schemas/session-user';
import { type DownloadProgress, readBody } from './advanced-invoices.service';
import { INVOICES_API_URL } from './api-config';
import { ApiError, request, requestFile } from './http';

// The monthly statements' calls (issue 34, decision 0071): the months of the signed-in company and each month's
// PDF or XLSX, per role.

const PATHS: Record<Role, string> = {
  provider: '/providers/account/statement/monthly/',
  corporate: '/corporates/account/statement/monthly/',
};

const MEDIA_TYPES: Record<MonthlyStatementFormat, string> = { pdf: 'application/pdf', xlsx: XLSX_MEDIA_TYPE };

export function listMonthlyStatements(role: Role): Promise<MonthlyStatementList> {
  return request(`${INVOICES_API_URL}${PATHS[role]}`, MonthlyStatementList);
}

/** GET …/monthly/{YYYY-MM}.pdf|.xlsx as a File named for the month, read chunk by chunk for the progress. */
export async function downloadMonthlyStatement(
  role: Role,
  file: MonthlyStatementFile,
  onProgress: (progress: DownloadProgress) => void,
): Promise<File> {
  const response = await requestFile(
    `${INVOICES_API_URL}${PATHS[role]}${file.month}.${file.format}`,
    MEDIA_TYPES[file.format],
  );
  let blob: Blob;
  try {
    blob = await readBody(response, onProgress);
  } catch (error) {
    console.warn('monthly statement interrupted', error);
    throw new ApiError(0, null);
  }
  return new File([blob], monthlyStatementFileName(file.month, file.format), {
    type: MEDIA_TYPES[file.format],
  });
}
