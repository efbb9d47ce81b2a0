import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RFC_PATTERN } from '../../../src/domain/rfc';
import type { CfdiFile } from './cfdi-import.service';

/** What Flujo holds to reach a taxpayer's SAT account. */
export interface SatCredentials {
  rfc: string;
  /** Decrypted only for the call; null when the company never stored one (demo data). */
  ciec: string | null;
}

/**
 * Flujo's boundary with SAT. A production connector would log into the SAT portal with the CIEC (or use
 * Descarga Masiva with an e.firma) and page through the CFDI the taxpayer issued; the sandbox reads a folder.
 * Approving a link is an operator decision in both cases (`npm run ops -- sat:approve <RFC>`).
 */
export interface SatConnector {
  readonly name: string;
  /** The CFDI 4.0 XML the taxpayer issued (emitidos), as files for the importer. */
  downloadIssuedCfdi(credentials: SatCredentials): Promise<CfdiFile[]>;
  /** When the connector last saw new documents for this RFC (the sandbox: the folder's mtime); null if unknown. */
  lastChange(rfc: string): number | null;
}

/** NOTE: a stamped CFDI 4.0 is a few KB; a bigger file in the sandbox is not an invoice. */
const MAX_SANDBOX_FILE_BYTES = 1_048_576;

/** The folder of one RFC; the RFC pattern (letters, digits, & and Ñ) keeps it inside the sandbox. */
export function sandboxFolder(sandboxDir: string, rfc: string): string {
  if (!RFC_PATTERN.test(rfc)) throw new Error(`Not an RFC: "${rfc}"`);
  return join(sandboxDir, rfc);
}

/** The development and test connector: `<sandboxDir>/<RFC>/*.xml` are the CFDI that RFC issued. */
export function createSandboxConnector(sandboxDir: string): SatConnector {
  return {
    name: 'sandbox',
    async downloadIssuedCfdi({ rfc }) {
      const folder = sandboxFolder(sandboxDir, rfc);
      let names: string[];
      try {
        names = readdirSync(folder);
      } catch {
        return [];
      }
      return names
        .filter((name) => name.toLowerCase().endsWith('.xml'))
        .sort()
        .flatMap((name) => {
          const path = join(folder, name);
          const stat = statSync(path);
          if (!stat.isFile() || stat.size > MAX_SANDBOX_FILE_BYTES) return [];
          return [{ name, content: readFileSync(path) }];
        });
    },
    lastChange(rfc) {
      try {
        return statSync(sandboxFolder(sandboxDir, rfc)).mtimeMs;
      } catch {
        return null;
      }
    },
  };
}
