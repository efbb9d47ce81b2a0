import type { CorporateDocumentKind, DocumentDecision } from '../../../src/domain/corporate-file';
import type { Db } from '../../db/database';

// The KYB file's rows (corporate_documents, migration 009): one per upload, the current one of a kind has
// replaced_at null. The PDF's bytes are read only by documentContent (the viewer), never by the lists.

const METADATA = [
  'corporate_documents.id',
  'corporate_documents.kind',
  'corporate_documents.file_name',
  'corporate_documents.size_bytes',
  'corporate_documents.sha256',
  'corporate_documents.clabe',
  'corporate_documents.status',
  'corporate_documents.reason',
  'corporate_documents.expires_on',
  'corporate_documents.uploaded_at',
  'corporate_documents.reviewed_at',
] as const;

/** The current document of each kind with who uploaded and who reviewed it (usernames). */
export function currentDocuments(db: Db, corporateId: number) {
  return db
    .selectFrom('corporate_documents')
    .innerJoin('users as uploader', 'uploader.id', 'corporate_documents.uploaded_by')
    .leftJoin('users as reviewer', 'reviewer.id', 'corporate_documents.reviewed_by')
    .select([...METADATA, 'uploader.username as uploaded_by', 'reviewer.username as reviewed_by'])
    .where('corporate_documents.corporate_id', '=', corporateId)
    .where('corporate_documents.replaced_at', 'is', null)
    .orderBy('corporate_documents.id')
    .execute();
}

export interface NewDocument {
  corporateId: number;
  kind: CorporateDocumentKind;
  fileName: string;
  content: Uint8Array;
  sha256: string;
  clabe: string | null;
  uploadedBy: number;
  at: Date;
}

/**
 * Stores an upload as the current document of its kind, pendiente; the one it replaces stays as history
 * (replaced_at set). Call inside a transaction that holds the corporate's row lock, so two uploads of a kind
 * cannot both become current.
 */
export async function replaceDocument(trx: Db, doc: NewDocument): Promise<number> {
  const at = doc.at.toISOString();
  await trx
    .updateTable('corporate_documents')
    .set({ replaced_at: at })
    .where('corporate_id', '=', doc.corporateId)
    .where('kind', '=', doc.kind)
    .where('replaced_at', 'is', null)
    .execute();
  const row = await trx
    .insertInto('corporate_documents')
    .values({
      corporate_id: doc.corporateId,
      kind: doc.kind,
      file_name: doc.fileName,
      size_bytes: doc.content.length,
      sha256: doc.sha256,
      content: doc.content,
      clabe: doc.clabe,
      uploaded_by: doc.uploadedBy,
      uploaded_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A current document of the corporate, locked when asked (a decision on a replaced one is refused: 404). */
export function findCurrentDocument(
  db: Db,
  corporateId: number,
  documentId: number,
  options: { lock?: boolean } = {},
) {
  let query = db
    .selectFrom('corporate_documents')
    .select(['id', 'kind', 'status'])
    .where('id', '=', documentId)
    .where('corporate_id', '=', corporateId)
    .where('replaced_at', 'is', null);
  if (options.lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Records a reviewer's decision on a document. */
export async function decideDocument(
  trx: Db,
  documentId: number,
  decision: {
    status: DocumentDecision;
    reason: string | null;
    expiresOn: string | null;
    reviewedBy: number;
    at: Date;
  },
): Promise<void> {
  await trx
    .updateTable('corporate_documents')
    .set({
      status: decision.status,
      reason: decision.reason,
      expires_on: decision.expiresOn,
      reviewed_by: decision.reviewedBy,
      reviewed_at: decision.at.toISOString(),
    })
    .where('id', '=', documentId)
    .execute();
}

/** The bytes of a document of the corporate (current or history), with its name, for the viewer. */
export function documentContent(db: Db, corporateId: number, documentId: number) {
  return db
    .selectFrom('corporate_documents')
    .select(['file_name', 'content', 'sha256'])
    .where('id', '=', documentId)
    .where('corporate_id', '=', corporateId)
    .executeTakeFirst();
}
