import { createVerify, type KeyObject, X509Certificate } from 'node:crypto';
import type { Document, Element } from '@xmldom/xmldom';
import { cfdiCadenaOriginal, tfdCadenaOriginal } from './cadena-original';
import { CFDI_40_NAMESPACE, TFD_NAMESPACE } from './namespaces';
import type { Cfdi } from './parse-cfdi';
import { childElements } from './safe-xml';
import { certificateNumber, type TrustStore } from './trust-store';

/** What proved a CFDI authentic, kept with the invoice and shown to its parties. */
export interface CfdiSealProof {
  certificateNumber: string;
  holderRfc: string;
  holderName: string;
  /** The issuing authority's common name. */
  issuer: string;
  /** The certificate's validity, ISO 8601. */
  validFrom: string;
  validUntil: string;
  uuid: string;
  /** False when SAT's stamping certificate is not in the trust store: SAT's status answer decides then. */
  satSealVerified: boolean;
}

export type SealCheck =
  | 'certificate'
  | 'number'
  | 'seal'
  | 'authority'
  | 'fiel'
  | 'rfc'
  | 'validity'
  | 'stamp'
  | 'satSeal';

export type SealVerification =
  | { ok: true; proof: CfdiSealProof }
  | { ok: false; check: SealCheck; reason: string };

/** The one place these Spanish reasons are written; the importer, `ops cfdi:verify` and the UI show them. */
export const sealRefusals: Record<SealCheck, string> = {
  certificate: 'El Certificado del CFDI no es un certificado X.509 válido.',
  number: 'El NoCertificado no corresponde al certificado incluido en el CFDI.',
  seal: 'El sello digital no corresponde al contenido del CFDI.',
  authority: 'El certificado no fue emitido por el SAT.',
  fiel: 'El certificado es de e.firma (FIEL); un CFDI se sella con un certificado de sello digital (CSD).',
  rfc: 'El RFC del certificado no coincide con el del emisor.',
  validity: 'El certificado no estaba vigente en la fecha del CFDI.',
  stamp: 'El timbre fiscal no corresponde al sello del CFDI.',
  satSeal: 'El sello del SAT del timbre fiscal no es válido.',
} as const;

/** Said of a proof whose SelloSAT could not be checked (SAT's stamping certificate is not in the trust store). */
export const SAT_SEAL_NOT_VERIFIED = 'sello del SAT no verificado';

// NOTE: Fecha is Mexico's local time without offset; since 2022 central Mexico keeps UTC-6 all year.
const MEXICO_CENTRAL_OFFSET = '-06:00';
const SEAL_ALGORITHM = 'RSA-SHA256';

/**
 * Proves a parsed CFDI 4.0: its Sello over SAT's cadena original with the key of its Certificado, that
 * certificate (a CSD of the issuer's RFC, numbered NoCertificado, valid on Fecha, issued by a trusted
 * authority), and its stamp (SelloCFD equal to Sello; SelloSAT when SAT's certificate is known).
 */
export function verifyCfdiSeal(root: Element, cfdi: Cfdi, trust: TrustStore): SealVerification {
  const refuse = (check: SealCheck): SealVerification => ({ ok: false, check, reason: sealRefusals[check] });
  const seal = root.getAttribute('Sello') ?? '';
  const facts = certificateFacts(root.getAttribute('Certificado') ?? '', trust);
  if (!facts) return refuse('certificate');
  const { certificate, authority, subject } = facts;
  if (facts.number !== root.getAttribute('NoCertificado')) return refuse('number');
  if (!verifiesSignature(cfdiCadenaOriginal(root.ownerDocument as Document), seal, facts.publicKey))
    return refuse('seal');
  if (!authority) return refuse('authority');
  if (!subject.branch) return refuse('fiel');
  if (subject.rfc !== cfdi.issuer.rfc) return refuse('rfc');
  const issuedAt = issuedInstant(cfdi);
  const validFrom = Date.parse(certificate.validFrom);
  const validUntil = Date.parse(certificate.validTo);
  if (!(issuedAt >= validFrom && issuedAt <= validUntil)) return refuse('validity');

  const stamp = stampOf(root);
  if (!stamp || stamp.getAttribute('SelloCFD') !== seal) return refuse('stamp');
  const satCertificate = trust.stampingCertificates.get(stamp.getAttribute('NoCertificadoSAT') ?? '');
  if (
    satCertificate &&
    !verifiesSignature(tfdCadenaOriginal(stamp), stamp.getAttribute('SelloSAT') ?? '', satCertificate)
  ) {
    return refuse('satSeal');
  }
  return {
    ok: true,
    proof: {
      certificateNumber: facts.number,
      holderRfc: subject.rfc,
      holderName: subject.name,
      issuer: commonName(authority),
      validFrom: new Date(validFrom).toISOString(),
      validUntil: new Date(validUntil).toISOString(),
      uuid: cfdi.uuid,
      satSealVerified: satCertificate !== undefined,
    },
  };
}

/** What a Certificado says, worked out once: a bulk upload repeats the same few certificates a thousand times. */
interface CertificateFacts {
  certificate: X509Certificate;
  publicKey: KeyObject;
  number: string;
  /** The trusted authority that issued it, if any. */
  authority: X509Certificate | undefined;
  subject: { rfc: string; name: string; branch: string };
}

// Per trust store (it decides `authority`), bounded: a hostile upload of distinct certificates only churns it.
const CERTIFICATE_CACHE = new WeakMap<TrustStore, Map<string, CertificateFacts | null>>();
const CERTIFICATE_CACHE_SIZE = 256;

function certificateFacts(base64: string, trust: TrustStore): CertificateFacts | null {
  let cache = CERTIFICATE_CACHE.get(trust);
  if (!cache) {
    cache = new Map();
    CERTIFICATE_CACHE.set(trust, cache);
  }
  const known = cache.get(base64);
  if (known !== undefined) return known;
  let facts: CertificateFacts | null;
  try {
    const certificate = new X509Certificate(Buffer.from(base64, 'base64'));
    facts = {
      certificate,
      publicKey: certificate.publicKey,
      number: certificateNumber(certificate),
      authority: trust.authorities.find(
        (candidate) => certificate.checkIssued(candidate) && certificate.verify(candidate.publicKey),
      ),
      subject: subjectOf(certificate),
    };
  } catch {
    facts = null;
  }
  if (cache.size >= CERTIFICATE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(base64, facts);
  return facts;
}

/** Fecha as an instant (ms), read as central Mexico's time. */
export function issuedInstant(cfdi: Pick<Cfdi, 'issuedAt'>): number {
  return Date.parse(`${cfdi.issuedAt}${MEXICO_CENTRAL_OFFSET}`);
}

export function verifiesSignature(
  cadena: string,
  base64Signature: string,
  signer: X509Certificate | KeyObject,
): boolean {
  try {
    return createVerify(SEAL_ALGORITHM)
      .update(cadena, 'utf8')
      .verify(
        signer instanceof X509Certificate ? signer.publicKey : signer,
        Buffer.from(base64Signature, 'base64'),
      );
  } catch {
    // A key that is not RSA, or a signature of the wrong size, is simply not a valid seal.
    return false;
  }
}

export function stampOf(root: Element): Element | undefined {
  // Where parseCfdi found it (it refuses a second one): never a look-alike inside an Addenda.
  return childElements(root, CFDI_40_NAMESPACE, 'Complemento').flatMap((complement) =>
    childElements(complement, TFD_NAMESPACE, 'TimbreFiscalDigital'),
  )[0];
}

type LegacySubject = Record<string, string | string[] | undefined>;

function subjectField(subject: LegacySubject, name: string): string {
  const value = subject[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** The holder as SAT writes it: x500UniqueIdentifier "RFC / CURP" (RFC first), OU = the CSD's branch. */
export function subjectOf(certificate: X509Certificate): { rfc: string; name: string; branch: string } {
  const subject = certificate.toLegacyObject().subject as unknown as LegacySubject;
  return {
    rfc: subjectField(subject, 'x500UniqueIdentifier').split('/')[0]?.trim().toUpperCase() ?? '',
    name: subjectField(subject, 'CN') || subjectField(subject, 'O'),
    branch: subjectField(subject, 'OU').trim(),
  };
}

/** A certificate's common name (its organisation when it has none); `issuer` reads who issued it instead. */
export function commonName(certificate: X509Certificate, of: 'subject' | 'issuer' = 'subject'): string {
  const names = certificate.toLegacyObject()[of] as unknown as LegacySubject;
  return subjectField(names, 'CN') || subjectField(names, 'O');
}
