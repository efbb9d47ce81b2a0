import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BULK_UPLOAD_MESSAGES } from '../../src/domain/bulk-upload';
import { extractZipEntries, inspectZip, isUnsafeEntryName, looksLikeZip } from './safe-zip';
import { UploadRefusal } from './upload-refusal';

const LIMITS = { maxEntries: 10, maxTotalBytes: 1024 * 1024, maxRatio: 100, ratioFreeBytes: 1024 };
const DAMAGED = 'dañado';

/** Rewrites the uncompressed size every local and central header of the ZIP declares (a lying archive). */
function declaring(zip: Uint8Array, size: number): Uint8Array {
  const copy = zip.slice();
  const view = new DataView(copy.buffer);
  for (let offset = 0; offset + 4 <= copy.length; offset += 1) {
    const signature = view.getUint32(offset, true);
    if (signature === 0x04034b50) view.setUint32(offset + 22, size, true);
    if (signature === 0x02014b50) view.setUint32(offset + 24, size, true);
  }
  return copy;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UploadRefusal);
    return (error as UploadRefusal).message;
  }
  throw new Error('not refused');
}

describe('safe ZIP reading', () => {
  it('lists the central directory and inflates the wanted entries', () => {
    const zip = zipSync({
      'a.xml': strToU8('<a>hola</a>'),
      'dir/b.xml': strToU8('x'.repeat(900)),
      'e.xml': strToU8(''),
    });
    expect(looksLikeZip(zip)).toBe(true);
    const entries = inspectZip(zip, LIMITS, DAMAGED);
    expect(entries.map((entry) => [entry.name, entry.size])).toEqual([
      ['a.xml', 11],
      ['dir/b.xml', 900],
      ['e.xml', 0],
    ]);
    const out = extractZipEntries(zip, entries, (entry) => entry.name !== 'a.xml', DAMAGED);
    expect([...out.keys()].sort()).toEqual(['dir/b.xml', 'e.xml']);
    expect(new TextDecoder().decode(out.get('dir/b.xml'))).toBe('x'.repeat(900));
  });

  it('refuses, before inflating, too many entries, too much declared data, a bomb ratio and unsafe names', () => {
    const many = zipSync(
      Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`${i}.xml`, strToU8('<a/>')])),
    );
    expect(refusal(() => inspectZip(many, LIMITS, DAMAGED))).toBe(BULK_UPLOAD_MESSAGES.tooManyEntries(10));
    const big = declaring(zipSync({ 'a.xml': strToU8('<a/>') }), 2 * 1024 * 1024);
    expect(refusal(() => inspectZip(big, LIMITS, DAMAGED))).toBe(
      BULK_UPLOAD_MESSAGES.tooBigUncompressed(1024 * 1024),
    );
    const bomb = zipSync({ 'z.xml': new Uint8Array(512 * 1024) });
    expect(refusal(() => inspectZip(bomb, LIMITS, DAMAGED))).toBe(
      BULK_UPLOAD_MESSAGES.suspiciousRatio('z.xml'),
    );
    for (const name of [
      '../x.xml',
      '/etc/x.xml',
      'C:/x.xml',
      'a\\..\\x.xml',
      'a/../../x.xml',
      'a\u0000.xml',
    ]) {
      expect(isUnsafeEntryName(name), name).toBe(true);
    }
    expect(isUnsafeEntryName('facturas/2026..03/a.xml')).toBe(false);
    expect(refusal(() => inspectZip(strToU8('PK\u0003\u0004 not really'), LIMITS, DAMAGED))).toBe(DAMAGED);
  });

  it('stops an entry that inflates beyond the size it declares', () => {
    // 400 KB of zeros declared as 1,000 bytes: the ratio looks innocent, the inflation is stopped.
    const lying = declaring(zipSync({ 'l.xml': new Uint8Array(400 * 1024) }), 1000);
    const entries = inspectZip(lying, LIMITS, DAMAGED);
    expect(refusal(() => extractZipEntries(lying, entries, () => true, DAMAGED))).toBe(
      BULK_UPLOAD_MESSAGES.sizeMismatch('l.xml'),
    );
  });
});
