import { unzlibSync } from 'fflate';

const STREAM = /stream\r?\n/g;
const SHOWN_TEXT = /<([0-9A-Fa-f]*)>\s*Tj/g;
// WinAnsiEncoding is Latin-1 except 0x80-0x9F (– “ ” € …). NOTE: Node 20's TextDecoder('windows-1252')
// decodes those as Latin-1 control characters, so the table is spelled out here (PDF 32000 Annex D).
const WIN_ANSI_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function winAnsi(bytes: Buffer): string {
  let text = '';
  for (const byte of bytes)
    text += byte >= 0x80 && byte <= 0x9f ? WIN_ANSI_HIGH[byte - 0x80] : String.fromCharCode(byte);
  return text;
}

/**
 * The text a pdf-lib document draws with the standard fonts, one string per drawText call, in drawing order.
 * pdf-lib Flate-compresses each content stream and writes text as hex strings (`<48656C6C6F> Tj`) in the
 * font's WinAnsi encoding. Enough for tests; not a PDF parser.
 */
export function pdfTextRuns(pdf: Uint8Array): string[] {
  const raw = Buffer.from(pdf).toString('latin1');
  const runs: string[] = [];
  for (const match of raw.matchAll(STREAM)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) continue;
    const data = pdf.subarray(start, raw[end - 1] === '\n' ? end - 1 : end);
    let content: string;
    try {
      content = Buffer.from(unzlibSync(data)).toString('latin1');
    } catch {
      continue; // not a Flate stream (an object stream's header, say)
    }
    for (const text of content.matchAll(SHOWN_TEXT)) runs.push(winAnsi(Buffer.from(text[1] ?? '', 'hex')));
  }
  return runs;
}
