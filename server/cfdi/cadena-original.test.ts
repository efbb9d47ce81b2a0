import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document, Element } from '@xmldom/xmldom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cfdiCadenaOriginal, compileCadenaXslt, tfdCadenaOriginal } from './cadena-original';
import { CFDI_40_NAMESPACE, TFD_NAMESPACE } from './namespaces';
import { childElements, parseXmlText, readXmlSafely } from './safe-xml';

const SAMPLES_DIR = fileURLToPath(new URL('../../test/fixtures/cfdi-samples/', import.meta.url));
const CFDI_XSLT = fileURLToPath(
  new URL('./sat-xslt/cfd/4/cadenaoriginal_4_0/cadenaoriginal_4_0.xslt', import.meta.url),
);
const TFD_XSLT = fileURLToPath(
  new URL('./sat-xslt/cfd/TimbreFiscalDigital/cadenaoriginal_TFD_1_1.xslt', import.meta.url),
);
const XSLTPROC_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

type Sample = { name: string; text: string; document: Document; stamp: Element | undefined };

const samples: Sample[] = readdirSync(SAMPLES_DIR)
  .filter((name) => name.endsWith('.xml'))
  .sort()
  .map((name) => {
    const bytes = readFileSync(join(SAMPLES_DIR, name));
    // The same reader uploads go through, so the cadena is checked on the documents production will see.
    const read = readXmlSafely(bytes, name);
    if (!read.ok) throw new Error(`${name}: ${read.reason}`);
    const [stamp] = childElements(read.root, CFDI_40_NAMESPACE, 'Complemento').flatMap((complement) =>
      childElements(complement, TFD_NAMESPACE, 'TimbreFiscalDigital'),
    );
    return { name, text: bytes.toString('utf8'), document: read.document, stamp };
  });
const stamped = samples.filter((sample) => sample.stamp !== undefined);

function sample(name: string): Sample {
  const found = samples.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no sample ${name}`);
  return found;
}

/** xsltproc's output per sample, computed once for the whole file (one process for every run). */
const reference = new Map<string, Buffer>();
let scratch: string | undefined;

beforeAll(() => {
  const probe = spawnSync('xsltproc', ['--version']);
  if (probe.error) {
    throw new Error(
      `xsltproc is required to check the cadena against SAT's own XSLT: apt-get install xsltproc (${probe.error.message})`,
    );
  }
  scratch = mkdtempSync(join(tmpdir(), 'cadena-original-'));
  const jobs: { key: string; xslt: string; file: string }[] = samples.map((s) => ({
    key: `cfdi:${s.name}`,
    xslt: CFDI_XSLT,
    file: join(SAMPLES_DIR, s.name),
  }));
  for (const s of stamped) {
    const file = join(scratch, s.name);
    writeFileSync(file, standaloneStampXml(s.text));
    jobs.push({ key: `tfd:${s.name}`, xslt: TFD_XSLT, file });
  }
  // A NUL separates the outputs: XML cannot carry one, so no cadena contains it.
  const script = 'while [ $# -gt 0 ]; do xsltproc "$1" "$2" || exit $?; printf "\\000"; shift 2; done';
  const run = spawnSync('sh', ['-c', script, 'sh', ...jobs.flatMap((job) => [job.xslt, job.file])], {
    maxBuffer: XSLTPROC_MAX_OUTPUT_BYTES,
  });
  if (run.error || run.status !== 0) {
    throw new Error(`xsltproc failed (${run.status}): ${run.error?.message ?? run.stderr.toString()}`);
  }
  let start = 0;
  for (const job of jobs) {
    const end = run.stdout.indexOf(0, start);
    if (end < 0) throw new Error(`xsltproc gave no output for ${job.key}`);
    reference.set(job.key, run.stdout.subarray(start, end));
    start = end + 1;
  }
});

afterAll(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/**
 * The stamp cut out of the sample's text as its own document, with the root's namespace declarations it may rely
 * on. Done on the text rather than through xmldom so that xsltproc's input does not depend on our parser.
 */
function standaloneStampXml(text: string): string {
  const stamp = /<(?:[\w.-]+:)?TimbreFiscalDigital\b[^>]*\/>/.exec(text)?.[0];
  if (!stamp) throw new Error('no self-closing TimbreFiscalDigital in the sample');
  const rootTag = /<(?:[\w.-]+:)?Comprobante\b[^>]*>/.exec(text)?.[0] ?? '';
  const declarations = (rootTag.match(/\sxmlns(?::[\w.-]+)?="[^"]*"/g) ?? []).filter(
    (declaration) => !stamp.includes(`${declaration.trim().split('=')[0]}=`),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n${stamp.replace(/^<[\w.:-]+/, (tag) => `${tag}${declarations.join('')}`)}\n`;
}

function expectSameBytes(actual: string, expected: Buffer | undefined): void {
  if (!expected) throw new Error('no xsltproc output');
  expect(actual).toBe(expected.toString('utf8'));
  expect(Buffer.compare(Buffer.from(actual, 'utf8'), expected)).toBe(0);
}

describe('cfdiCadenaOriginal', () => {
  it('has samples for every case the fixtures promise', () => {
    expect(samples.length).toBeGreaterThanOrEqual(12);
    expect(stamped.length).toBe(samples.length);
  });

  it.each(samples.map((s) => s.name))('%s: byte-identical to xsltproc with SAT’s XSLT', (name) => {
    expectSameBytes(cfdiCadenaOriginal(sample(name).document), reference.get(`cfdi:${name}`));
  });

  it('keeps NBSP and other Unicode spaces; collapses only space, TAB, CR and LF', () => {
    const cadena = cfdiCadenaOriginal(sample('03-whitespace.xml').document);
    expect(cadena).toContain('|CLIENTE\u00A0CON\u00A0NBSP|');
    expect(cadena).toContain('|123\u2003456\u3000|');
    expect(cadena).toContain('|EMPRESA DEL NORTE SA DE CV|');
    expect(cadena).toContain('|Contado 30 días naturales|');
  });

  it('writes "|" for an optional attribute that is present but empty, and nothing when it is absent', () => {
    const absent = plainDocument();
    const empty = plainDocument();
    empty.documentElement?.setAttribute('CondicionesDePago', '');
    const certificate = '|00001000000000000001|';
    expect(cfdiCadenaOriginal(empty)).toBe(
      cfdiCadenaOriginal(absent).replace(certificate, `${certificate}|`),
    );
  });

  it('writes an empty field for a missing required attribute', () => {
    const document = plainDocument();
    const [issuer] = childElements(documentRoot(document), CFDI_40_NAMESPACE, 'Emisor');
    issuer?.removeAttribute('Nombre');
    expect(cfdiCadenaOriginal(document)).toContain('|PFL200115K34||601|');
  });

  it('takes field order from the XSLT, not from the attributes', () => {
    expect(cfdiCadenaOriginal(sample('10-shuffled.xml').document)).toBe(
      cfdiCadenaOriginal(sample('01-plain.xml').document),
    );
  });

  it('lets an unknown complement leak its text, as XSLT built-in rules do, and ignores the Addenda', () => {
    expect(cfdiCadenaOriginal(sample('11-unknown-complement.xml').document)).toContain(
      '\n      texto   libre\n      con & y <\n',
    );
    expect(cfdiCadenaOriginal(sample('12-addenda.xml').document)).not.toContain('FALSO');
  });
});

describe('tfdCadenaOriginal', () => {
  it.each(stamped.map((s) => s.name))('%s: byte-identical to xsltproc on the stamp alone', (name) => {
    const { stamp } = sample(name);
    if (!stamp) throw new Error(`${name} has no stamp`);
    expectSameBytes(tfdCadenaOriginal(stamp), reference.get(`tfd:${name}`));
  });

  it('writes "|" for an empty Leyenda', () => {
    const { stamp } = sample('04-empty-optional.xml');
    if (!stamp) throw new Error('no stamp');
    expect(tfdCadenaOriginal(stamp)).toBe(
      '||1.1|3A2B1C0D-5E6F-4A7B-8C9D-0E1F2A3B4C04|2025-07-01T08:01:00|SAT970701NN3||U2VsbG8=|00001000000000000002||',
    );
  });
});

describe('compileCadenaXslt', () => {
  it.each([
    ['an unknown instruction', '<xsl:choose><xsl:when test="@a">x</xsl:when></xsl:choose>', /xsl:choose/],
    ['an unknown XPath function', '<xsl:value-of select="concat(@a, @b)"/>', /concat/],
    ['a predicate', '<xsl:apply-templates select="./r[1]"/>', /XPath/],
    ['a mode', '<xsl:apply-templates select="./r" mode="m"/>', /mode/],
  ])('throws on %s instead of guessing', (_case, body, message) => {
    const directory = mkdtempSync(join(tmpdir(), 'cadena-xslt-'));
    try {
      const file = join(directory, 'unsupported.xslt');
      writeFileSync(
        file,
        `<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="text" encoding="UTF-8"/>
  <xsl:template match="/">${body}</xsl:template>
</xsl:stylesheet>`,
      );
      expect(() => compileCadenaXslt(file)).toThrow(message);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

function plainDocument(): Document {
  const read = parseXmlText(sample('01-plain.xml').text);
  if (!read.ok) throw new Error(read.reason);
  return read.document;
}

function documentRoot(document: Document): Element {
  const root = document.documentElement;
  if (!root) throw new Error('no root');
  return root;
}
