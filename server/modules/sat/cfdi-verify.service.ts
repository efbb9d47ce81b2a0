import { X509Certificate } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { tfdCadenaOriginal } from '../../cfdi/cadena-original';
import { type Cfdi, parseCfdi } from '../../cfdi/parse-cfdi';
import { certificateNumber, type TrustStore } from '../../cfdi/trust-store';
import {
  commonName,
  issuedInstant,
  type SealCheck,
  stampOf,
  subjectOf,
  verifiesSignature,
  verifyCfdiSeal,
} from '../../cfdi/verify-cfdi';
import type { Db } from '../../db/database';
import type { EfosEntriesTable } from '../../db/schema';
import { efosStandingOf } from '../efos/efos.repository';
import { askSatAll, type CfdiAuthenticity, type SatCheck } from './cfdi-authenticity';

// `ops cfdi:verify`: everything Flujo can say about a CFDI file without importing it. verifyCfdiSeal stops
// at the first failing check; this report also reads the certificate and the stamp on their own, so an
// operator sees what the file claims even when its proof fails.

/** What the CFDI's Certificado says, read whether or not the seal holds. */
export interface CertificateFacts {
  /** The NoCertificado attribute, as the CFDI declares it. */
  declaredNumber: string;
  /** The number of the certificate actually included (differs from declaredNumber in a forgery). */
  number: string;
  holderRfc: string;
  holderName: string;
  /** The issuing authority's common name: the trusted certificate's when one issued it, else as the certificate names it. */
  issuer: string;
  /** Issued (and signed) by an authority of the trust store. */
  trusted: boolean;
  /** ISO 8601. */
  validFrom: string;
  validUntil: string;
  /** Valid on the CFDI's Fecha (central Mexico time). */
  validOnIssue: boolean;
}

/** The Timbre Fiscal Digital: its folio fiscal and how far it could be checked. */
export interface StampFacts {
  uuid: string;
  /** SelloCFD repeats the CFDI's Sello, as a stamp of this document must. */
  matchesSeal: boolean;
  /** 'unknown': SAT's stamping certificate (NoCertificadoSAT) is not in the trust store. */
  satSeal: 'verified' | 'invalid' | 'unknown';
}

export type CfdiVerifyReport =
  | { name: string; readable: false; reason: string; passed: false }
  | {
      name: string;
      readable: true;
      issuerRfc: string;
      seal: { ok: true } | { ok: false; check: SealCheck; reason: string };
      /** Null when the Certificado is not an X.509 certificate. */
      certificate: CertificateFacts | null;
      stamp: StampFacts;
      sat: SatCheck;
      /** The issuer's entry on the last imported 69-B list, if it holds one. */
      efos: { situation: EfosEntriesTable['situation'] | null; list_imported_at: string | null };
      /** The seal passes and SAT says Vigente. */
      passed: boolean;
    };

export interface CfdiVerifyFile {
  name: string;
  content: string | Uint8Array;
}

/**
 * Proves each file as the importer would (verifyCfdiSeal), reads its certificate and stamp, asks SAT's status
 * service and looks its issuer up on the 69-B list; writes nothing. One report per file, in order.
 */
export async function verifyCfdiFiles(
  db: Db,
  authenticity: CfdiAuthenticity,
  files: readonly CfdiVerifyFile[],
): Promise<CfdiVerifyReport[]> {
  const parsed = files.map((file) => ({ name: file.name, result: parseCfdi(file.content, file.name) }));
  const readable = parsed.flatMap(({ result }) => (result.ok ? [result] : []));
  // A few questions at a time, as the importer asks: a folder of a thousand files is not a thousand waits.
  const checks = await askSatAll(
    authenticity,
    db,
    readable.map(({ cfdi, root }) => ({
      uuid: cfdi.uuid,
      issuerRfc: cfdi.issuer.rfc,
      receiverRfc: cfdi.receiver.rfc,
      total: cfdi.total,
      seal: root.getAttribute('Sello') ?? '',
    })),
  );
  const reports: CfdiVerifyReport[] = [];
  let next = 0;
  for (const { name, result } of parsed) {
    if (!result.ok) {
      reports.push({ name, readable: false, reason: result.reason, passed: false });
      continue;
    }
    const { cfdi, root } = result;
    const sat = checks[next++] as SatCheck;
    const verification = verifyCfdiSeal(root, cfdi, authenticity.trust);
    reports.push({
      name,
      readable: true,
      issuerRfc: cfdi.issuer.rfc,
      seal: verification.ok
        ? { ok: true }
        : { ok: false, check: verification.check, reason: verification.reason },
      certificate: certificateFacts(root, cfdi, authenticity.trust),
      stamp: stampFacts(root, cfdi, root.getAttribute('Sello') ?? '', authenticity.trust),
      sat,
      efos: await efosStandingOf(db, cfdi.issuer.rfc),
      passed: verification.ok && sat.answered && sat.answer.estado === 'Vigente',
    });
  }
  return reports;
}

function certificateFacts(root: Element, cfdi: Cfdi, trust: TrustStore): CertificateFacts | null {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(Buffer.from(root.getAttribute('Certificado') ?? '', 'base64'));
  } catch {
    return null;
  }
  const authority = trust.authorities.find(
    (candidate) => certificate.checkIssued(candidate) && certificate.verify(candidate.publicKey),
  );
  const holder = subjectOf(certificate);
  const validFrom = Date.parse(certificate.validFrom);
  const validUntil = Date.parse(certificate.validTo);
  const issuedAt = issuedInstant(cfdi);
  return {
    declaredNumber: root.getAttribute('NoCertificado') ?? '',
    number: certificateNumber(certificate),
    holderRfc: holder.rfc,
    holderName: holder.name,
    issuer: authority ? commonName(authority) : commonName(certificate, 'issuer'),
    trusted: authority !== undefined,
    validFrom: new Date(validFrom).toISOString(),
    validUntil: new Date(validUntil).toISOString(),
    validOnIssue: issuedAt >= validFrom && issuedAt <= validUntil,
  };
}

function stampFacts(root: Element, cfdi: Cfdi, seal: string, trust: TrustStore): StampFacts {
  // parseCfdi refuses a CFDI without its stamp, so there is one here.
  const stamp = stampOf(root) as Element;
  const satCertificate = trust.stampingCertificates.get(stamp.getAttribute('NoCertificadoSAT') ?? '');
  return {
    uuid: cfdi.uuid,
    matchesSeal: stamp.getAttribute('SelloCFD') === seal,
    satSeal: !satCertificate
      ? 'unknown'
      : verifiesSignature(tfdCadenaOriginal(stamp), stamp.getAttribute('SelloSAT') ?? '', satCertificate)
        ? 'verified'
        : 'invalid',
  };
}
