import {
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  X509Certificate,
} from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import forge from 'node-forge';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../private-files';

/**
 * Flujo's demo certificate authority: it issues CSD-like certificates (as SAT does for issuers) and stamps
 * CFDI as SAT's sandbox (its own stamping certificate signs SelloSAT). Development, tests and the demo world
 * trust it so every CFDI they make is genuinely signed; production never loads it (docs/decisions/0056).
 *
 * Node's crypto verifies certificates but cannot issue them; node-forge issues them synchronously, so the
 * CFDI builder stays a plain function. Keys are node:crypto RSA-2048 keys.
 */

/** A certificate with its private key: what an issuer seals a CFDI with (its CSD) or SAT stamps with. */
export interface SigningCredential {
  certificate: X509Certificate;
  /** Base64 DER, as written in the CFDI's `Certificado`. */
  certificateBase64: string;
  /** The 20-digit certificate number SAT prints (NoCertificado / NoCertificadoSAT). */
  number: string;
  privateKey: KeyObject;
}

export interface CertificateRequest {
  rfc: string;
  name: string;
  /** Subject OU: a CSD names its branch; an e.firma (FIEL) has none, so '' issues a FIEL-like certificate. */
  branch?: string;
  notBefore?: Date;
  notAfter?: Date;
  /** 20 digits; derived from the RFC when absent. */
  number?: string;
}

export interface CertificateIssuer {
  /** The authority's own certificate (what a trust store holds). */
  certificate: X509Certificate;
  issue(request: CertificateRequest): SigningCredential;
  /** The issuer's CSD for this RFC, issued once per process. */
  csdFor(rfc: string, name: string): SigningCredential;
}

export interface DemoAuthority extends CertificateIssuer {
  /** The sandbox SAT's stamping credential: its number is the TFD's NoCertificadoSAT. */
  stamping: SigningCredential;
  /**
   * The folio fiscal the sandbox SAT gives a sealed CFDI: a MAC of what its status service is later asked
   * (issuer, receiver, total, seal tail), so the sandbox knows its own CFDI without keeping a register.
   */
  stampUuid(fields: StampedFields): string;
}

/** The fields of SAT's status expression, as written there (`tt` already in the expression's format). */
export interface StampedFields {
  re: string;
  rr: string;
  tt: string;
  fe: string;
}

const KEY_BITS = 2048;
const AUTHORITY_NAME = 'AC DEMO FLUJO (NO ES EL SAT)';
const AUTHORITY_UNIT = 'Autoridad de demostración; nunca confiable en producción';
const STAMPING_NAME = 'SAT DEMO FLUJO TIMBRADO';
const STAMPING_NUMBER = '00009000000000000001';
// Wide validity so fixtures dated in any recent year verify; one test issues its own expired certificate.
const VALID_FROM = new Date('2020-01-01T00:00:00Z');
const VALID_UNTIL = new Date('2040-01-01T00:00:00Z');
const CSD_BRANCH = 'Matriz';
// NOTE: 2.5.4.45 is x500UniqueIdentifier, where SAT writes "RFC / CURP" (the RFC first).
const UNIQUE_IDENTIFIER_OID = '2.5.4.45';
const FILES = {
  authorityKey: 'authority.key.pem',
  authorityCertificate: 'authority.cert.pem',
  leafKey: 'csd.key.pem',
  stampingKey: 'stamping.key.pem',
  stampingCertificate: 'stamping.cert.pem',
} as const;

/**
 * Loads the demo authority kept in `dir`, creating it when absent. Creation writes aside and renames, so two
 * processes starting together end up with one authority (the loser of the rename reads the winner's).
 */
export function loadDemoAuthority(dir: string): DemoAuthority {
  if (!existsSync(join(dir, FILES.stampingCertificate))) createAuthorityDir(dir);
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  const issuer = certificateIssuer(
    createPrivateKey(read(FILES.authorityKey)),
    new X509Certificate(read(FILES.authorityCertificate)),
    createPrivateKey(read(FILES.leafKey)),
  );
  const stampingKey = createPrivateKey(read(FILES.stampingKey));
  const stampingCertificate = new X509Certificate(read(FILES.stampingCertificate));
  const uuidKey = createHash('sha256')
    .update(stampingKey.export({ type: 'pkcs8', format: 'der' }))
    .digest();
  return {
    ...issuer,
    stamping: {
      certificate: stampingCertificate,
      certificateBase64: stampingCertificate.raw.toString('base64'),
      number: STAMPING_NUMBER,
      privateKey: stampingKey,
    },
    stampUuid: ({ re, rr, tt, fe }) =>
      uuidFromDigest(createHmac('sha256', uuidKey).update(`${re}|${rr}|${tt}|${fe}`).digest()),
  };
}

/** The PEM files a trust store reads from a demo authority directory: its CA and its stamping certificate. */
export const DEMO_TRUSTED_FILES = [FILES.authorityCertificate, FILES.stampingCertificate] as const;

/** An authority that exists only in memory, trusted by nobody: tests use it to forge "self-made" CSDs. */
export function createUntrustedAuthority(name = 'AC APÓCRIFA'): CertificateIssuer {
  const authority = generateKeyPairSync('rsa', { modulusLength: KEY_BITS });
  const certificate = selfSignedAuthority(authority.privateKey, authority.publicKey, name);
  const leaf = generateKeyPairSync('rsa', { modulusLength: KEY_BITS });
  return certificateIssuer(authority.privateKey, certificate, leaf.privateKey);
}

function createAuthorityDir(dir: string): void {
  mkdirSync(dirname(dir), { recursive: true, mode: PRIVATE_DIR_MODE });
  const aside = `${dir}.${process.pid}.${Date.now()}.tmp`;
  mkdirSync(aside, { recursive: true, mode: PRIVATE_DIR_MODE });
  const authority = generateKeyPairSync('rsa', { modulusLength: KEY_BITS });
  const authorityCertificate = selfSignedAuthority(authority.privateKey, authority.publicKey, AUTHORITY_NAME);
  const leaf = generateKeyPairSync('rsa', { modulusLength: KEY_BITS });
  const stamping = generateKeyPairSync('rsa', { modulusLength: KEY_BITS });
  const stampingCertificate = issueCertificate(
    authority.privateKey,
    authorityCertificate,
    stamping.publicKey,
    {
      subject: [
        { name: 'commonName', value: STAMPING_NAME },
        { name: 'organizationName', value: 'SERVICIO DE ADMINISTRACION TRIBUTARIA (DEMO)' },
        { name: 'organizationalUnitName', value: 'Timbrado de demostración' },
      ],
      number: STAMPING_NUMBER,
      notBefore: VALID_FROM,
      notAfter: VALID_UNTIL,
    },
  );
  const pem = (key: KeyObject) => key.export({ type: 'pkcs8', format: 'pem' }) as string;
  const write = (file: string, text: string) =>
    writeFileSync(join(aside, file), text, { mode: PRIVATE_FILE_MODE });
  write(FILES.authorityKey, pem(authority.privateKey));
  write(FILES.authorityCertificate, authorityCertificate.toString());
  write(FILES.leafKey, pem(leaf.privateKey));
  write(FILES.stampingKey, pem(stamping.privateKey));
  write(FILES.stampingCertificate, stampingCertificate.toString());
  try {
    renameSync(aside, dir);
  } catch (error) {
    rmSync(aside, { recursive: true, force: true });
    // Another process created it first (a directory cannot be renamed onto a non-empty one): use theirs.
    if (!existsSync(join(dir, FILES.stampingCertificate))) throw error;
  }
}

function certificateIssuer(
  authorityKey: KeyObject,
  authorityCertificate: X509Certificate,
  leafKey: KeyObject,
): CertificateIssuer {
  // One leaf key for every demo CSD: issuing a certificate is cheap, generating an RSA key is not.
  const leafPublicKey = createPublicKey(leafKey);
  const issued = new Map<string, SigningCredential>();
  const issue = (request: CertificateRequest): SigningCredential => {
    const number = request.number ?? certificateNumberFor(request.rfc);
    const branch = request.branch ?? CSD_BRANCH;
    const certificate = issueCertificate(authorityKey, authorityCertificate, leafPublicKey, {
      subject: [
        { name: 'commonName', value: request.name },
        { name: 'organizationName', value: request.name },
        { type: UNIQUE_IDENTIFIER_OID, value: `${request.rfc} / `, valueTagClass: UTF8_STRING },
        ...(branch === '' ? [] : [{ name: 'organizationalUnitName', value: branch }]),
      ],
      number,
      notBefore: request.notBefore ?? VALID_FROM,
      notAfter: request.notAfter ?? VALID_UNTIL,
    });
    return {
      certificate,
      certificateBase64: certificate.raw.toString('base64'),
      number,
      privateKey: leafKey,
    };
  };
  return {
    certificate: authorityCertificate,
    issue,
    csdFor(rfc, name) {
      const key = `${rfc}|${name}`;
      let credential = issued.get(key);
      if (!credential) {
        credential = issue({ rfc, name });
        issued.set(key, credential);
      }
      return credential;
    },
  };
}

// node-forge types valueTagClass as its tag enum, but the subject attribute accepts the number itself.
const UTF8_STRING = forge.asn1.Type.UTF8 as unknown as forge.asn1.Class;

type SubjectAttribute = forge.pki.CertificateField;

function issueCertificate(
  authorityKey: KeyObject,
  authorityCertificate: X509Certificate | null,
  publicKey: KeyObject,
  fields: {
    subject: SubjectAttribute[];
    number: string;
    notBefore: Date;
    notAfter: Date;
    authority?: boolean;
  },
): X509Certificate {
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = forge.pki.publicKeyFromPem(
    publicKey.export({ type: 'spki', format: 'pem' }) as string,
  );
  // NOTE: SAT writes the certificate number's digits as the serial's bytes (ASCII), e.g. "3030…" for "00…".
  certificate.serialNumber = Buffer.from(fields.number, 'ascii').toString('hex');
  certificate.validity.notBefore = fields.notBefore;
  certificate.validity.notAfter = fields.notAfter;
  certificate.setSubject(fields.subject);
  certificate.setIssuer(
    authorityCertificate
      ? forge.pki.certificateFromPem(authorityCertificate.toString()).subject.attributes
      : fields.subject,
  );
  certificate.setExtensions(
    fields.authority
      ? [
          { name: 'basicConstraints', cA: true, critical: true },
          { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
        ]
      : [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true },
        ],
  );
  certificate.sign(
    forge.pki.privateKeyFromPem(authorityKey.export({ type: 'pkcs8', format: 'pem' }) as string),
    forge.md.sha256.create(),
  );
  return new X509Certificate(
    Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(certificate)).getBytes(), 'binary'),
  );
}

function selfSignedAuthority(privateKey: KeyObject, publicKey: KeyObject, name: string): X509Certificate {
  return issueCertificate(privateKey, null, publicKey, {
    subject: [
      { name: 'commonName', value: name },
      { name: 'organizationName', value: 'Flujo' },
      { name: 'organizationalUnitName', value: AUTHORITY_UNIT },
    ],
    number: '00000000000000000001',
    notBefore: VALID_FROM,
    notAfter: VALID_UNTIL,
    authority: true,
  });
}

/** 20 digits like SAT's (prefix 00001 as production CSDs have), stable for an RFC. */
function certificateNumberFor(rfc: string): string {
  const digits =
    BigInt(`0x${createHash('sha256').update(`csd|${rfc}`).digest('hex').slice(0, 16)}`) % 10n ** 15n;
  return `00001${digits.toString().padStart(15, '0')}`;
}

/** A folio fiscal from a digest's first 16 bytes: RFC 4122 version-4 layout, upper case as PACs write it. */
export function uuidFromDigest(digest: Buffer): string {
  const bytes = Buffer.from(digest.subarray(0, 16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex').toUpperCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
