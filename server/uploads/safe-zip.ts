import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync } from 'fflate';
import { BULK_UPLOAD_MESSAGES } from '../../src/domain/bulk-upload';
import { UploadRefusal } from './upload-refusal';

// Reading an untrusted ZIP (a ZIP of CFDI XML, or an XLSX, which is a ZIP) without letting it cost more than
// its limits: sizes, names and count come from the central directory before anything is inflated, and the
// inflation itself is streamed in small pieces and stopped as soon as an entry outgrows what it declared.

/** An entry as the central directory declares it. */
export interface ZipEntryInfo {
  name: string;
  /** Declared compressed size, bytes. */
  compressedSize: number;
  /** Declared uncompressed size, bytes. */
  size: number;
  /** 0 stored, 8 deflate; anything else is refused. */
  compression: number;
  directory: boolean;
}

export interface ZipLimits {
  maxEntries: number;
  /** Bound on the sum of the declared uncompressed sizes. */
  maxTotalBytes: number;
  /** Bound on one entry's uncompressed / compressed size (entries under ratioFreeBytes are not judged). */
  maxRatio: number;
  ratioFreeBytes: number;
}

const LOCAL_HEADER = [0x50, 0x4b, 0x03, 0x04];
const EMPTY_ARCHIVE = [0x50, 0x4b, 0x05, 0x06];
const STORED = 0;
const DEFLATE = 8;
// Compressed bytes handed to the inflater at a time: deflate expands at most ~1032:1, so one step of a
// lying entry produces at most ~16 MB before its size check stops it.
const INFLATE_STEP = 16 * 1024;

/** True when the bytes start like a ZIP (a local file header, or the end record of an empty archive). */
export function looksLikeZip(data: Uint8Array): boolean {
  const head = [...data.subarray(0, 4)];
  return (
    LOCAL_HEADER.every((byte, i) => head[i] === byte) || EMPTY_ARCHIVE.every((byte, i) => head[i] === byte)
  );
}

/**
 * An entry name that could escape the folder it is extracted to, or that no file system agrees on: absolute,
 * a drive letter, a `..` segment, a backslash, or a control character. We extract nothing to disk, but such a
 * name is never innocent and is refused.
 */
export function isUnsafeEntryName(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name)) return true;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses.
  if (/[\u0000-\u001f]/.test(name)) return true;
  return name.split('/').some((segment) => segment === '..');
}

class TooManyEntries extends Error {}

/**
 * The entries of the ZIP's central directory, checked against the limits before any byte is inflated:
 * at most maxEntries, no unsafe name, the declared total within maxTotalBytes and no entry compressed beyond
 * maxRatio. Throws an UploadRefusal (400) naming the problem; `damaged` is the refusal for an unreadable file.
 */
export function inspectZip(data: Uint8Array, limits: ZipLimits, damaged: string): ZipEntryInfo[] {
  const entries: ZipEntryInfo[] = [];
  try {
    // fflate's filter sees each central-directory record (name and declared sizes) before it would inflate
    // anything; answering false inflates nothing.
    unzipSync(data, {
      filter(file) {
        if (entries.length >= limits.maxEntries) throw new TooManyEntries();
        entries.push({
          name: file.name,
          compressedSize: file.size,
          size: file.originalSize,
          compression: file.compression,
          directory: file.name.endsWith('/'),
        });
        return false;
      },
    });
  } catch (error) {
    if (error instanceof TooManyEntries) {
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.tooManyEntries(limits.maxEntries));
    }
    throw new UploadRefusal(400, damaged);
  }
  let total = 0;
  for (const entry of entries) {
    if (isUnsafeEntryName(entry.name))
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.unsafePath(entry.name));
    if (entry.directory) continue;
    if (entry.compression !== STORED && entry.compression !== DEFLATE) {
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.encrypted(entry.name));
    }
    total += entry.size;
    if (total > limits.maxTotalBytes) {
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.tooBigUncompressed(limits.maxTotalBytes));
    }
    if (
      entry.size > limits.ratioFreeBytes &&
      entry.size / Math.max(entry.compressedSize, 1) > limits.maxRatio
    ) {
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.suspiciousRatio(entry.name));
    }
  }
  return entries;
}

class StopReading extends Error {
  constructor(readonly refusal: UploadRefusal) {
    super(refusal.message);
  }
}

function concat(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/**
 * Inflates the wanted entries (already accepted by inspectZip), each held to the size its central-directory
 * record declares: an entry that inflates to more (a lying header) is stopped at once and refused. Returns the
 * entries by name. Throws an UploadRefusal (400) for a damaged archive or a size mismatch.
 */
export function extractZipEntries(
  data: Uint8Array,
  entries: readonly ZipEntryInfo[],
  wanted: (entry: ZipEntryInfo) => boolean,
  damaged: string,
): Map<string, Uint8Array> {
  const declared = new Map(entries.map((entry) => [entry.name, entry]));
  const pending = new Set(entries.filter((entry) => !entry.directory && wanted(entry)).map((e) => e.name));
  const out = new Map<string, Uint8Array>();
  for (const name of pending) {
    // An empty entry has nothing to stream.
    if (declared.get(name)?.size === 0) out.set(name, new Uint8Array(0));
  }
  const unzip = new Unzip((file) => {
    const info = declared.get(file.name);
    if (!info) throw new StopReading(new UploadRefusal(400, damaged));
    if (!pending.has(file.name) || out.has(file.name)) return;
    const chunks: Uint8Array[] = [];
    let size = 0;
    const mismatch = new UploadRefusal(400, BULK_UPLOAD_MESSAGES.sizeMismatch(file.name));
    let oversized = false;
    file.ondata = (error, chunk, final) => {
      // fflate reports what a handler throws by calling it again with the error: keep the first reason.
      if (error) throw new StopReading(oversized ? mismatch : new UploadRefusal(400, damaged));
      size += chunk.length;
      if (size > info.size) {
        oversized = true;
        file.terminate();
        throw new StopReading(mismatch);
      }
      chunks.push(chunk);
      if (final) {
        if (size !== info.size) throw new StopReading(mismatch);
        out.set(file.name, concat(chunks, size));
      }
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    for (let offset = 0; offset < data.length; offset += INFLATE_STEP) {
      const end = Math.min(offset + INFLATE_STEP, data.length);
      unzip.push(data.subarray(offset, end), end === data.length);
    }
  } catch (error) {
    if (error instanceof StopReading) throw error.refusal;
    throw new UploadRefusal(400, damaged);
  }
  // Every wanted entry of the central directory must have been met in the stream.
  for (const name of pending) if (!out.has(name)) throw new UploadRefusal(400, damaged);
  return out;
}
