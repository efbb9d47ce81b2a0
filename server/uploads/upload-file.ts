import type { FastifyRequest } from 'fastify';
import { BULK_UPLOAD_MESSAGES } from '../../src/domain/bulk-upload';
import { UploadRefusal } from './upload-refusal';

/** The uploaded file of a multipart request, read into memory (within the upload limit). */
export interface UploadedFile {
  fileName: string;
  mimeType: string;
  data: Buffer;
}

export interface Upload {
  file: UploadedFile | null;
  /** The expected text fields that came, by name. */
  fields: Record<string, string>;
}

export interface UploadShape {
  /** The form field that carries the file. */
  fileField: string;
  /** The text fields read; any other is ignored. */
  fieldNames: readonly string[];
  /** UPLOAD_MAX_MB in bytes. */
  maxBytes: number;
}

// Room for the multipart boundaries, part headers and the few text fields around the file.
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
// A payment date is ten characters; nothing we read is longer than this.
const MAX_FIELD_BYTES = 1024;

/** @fastify/multipart's error codes, as the refusals they become. */
function refusalOf(error: unknown, maxBytes: number): UploadRefusal {
  switch ((error as { code?: string }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new UploadRefusal(413, BULK_UPLOAD_MESSAGES.tooLarge(maxBytes));
    case 'FST_FILES_LIMIT':
      return new UploadRefusal(400, BULK_UPLOAD_MESSAGES.tooManyFiles);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new UploadRefusal(400, BULK_UPLOAD_MESSAGES.tooManyFields);
    default:
      return new UploadRefusal(400, BULK_UPLOAD_MESSAGES.badMultipart);
  }
}

/**
 * Reads a multipart upload of one file and a few text fields, refusing before reading when the declared
 * length is over the limit (413), when the body is not multipart (415), and while reading when the file
 * outgrows the limit (413) or the form carries more parts than expected (400). Nothing is written anywhere.
 */
export async function readUpload(request: FastifyRequest, shape: UploadShape): Promise<Upload> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > shape.maxBytes + MULTIPART_OVERHEAD_BYTES) {
    throw new UploadRefusal(413, BULK_UPLOAD_MESSAGES.tooLarge(shape.maxBytes));
  }
  if (!request.isMultipart()) throw new UploadRefusal(415, BULK_UPLOAD_MESSAGES.notMultipart);
  const upload: Upload = { file: null, fields: {} };
  try {
    const parts = request.parts({
      limits: {
        fileSize: shape.maxBytes,
        files: 1,
        fields: shape.fieldNames.length + 2,
        fieldSize: MAX_FIELD_BYTES,
        parts: shape.fieldNames.length + 3,
        headerPairs: 20,
      },
    });
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== shape.fileField) {
          // Not ours: drain it (still within the limits) and go on.
          part.file.resume();
          continue;
        }
        upload.file = { fileName: part.filename, mimeType: part.mimetype, data: await part.toBuffer() };
      } else if (shape.fieldNames.includes(part.fieldname)) {
        upload.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (error) {
    if (error instanceof UploadRefusal) throw error;
    throw refusalOf(error, shape.maxBytes);
  }
  return upload;
}

/** The file extension, lower-cased, without the dot ('' when none). */
export function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * The file the route expects, or its refusal: missing (400), empty (400), or not of the kind the route reads
 * by media type, extension or magic bytes (415, `wrongKind`).
 */
export function requireFile(
  upload: Upload,
  shape: UploadShape,
  kind: {
    mediaTypes: readonly string[];
    extension: string;
    magic: (data: Uint8Array) => boolean;
    wrongKind: string;
  },
): UploadedFile {
  const file = upload.file;
  if (!file) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.fileMissing(shape.fileField));
  if (file.data.length === 0) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.empty);
  const mediaType = file.mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (
    !kind.mediaTypes.includes(mediaType) ||
    extensionOf(file.fileName) !== kind.extension ||
    !kind.magic(file.data)
  ) {
    throw new UploadRefusal(415, kind.wrongKind);
  }
  return file;
}
