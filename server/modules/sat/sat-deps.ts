import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import type { Clock } from '../auth/clock';
import type { CfdiAuthenticity } from './cfdi-authenticity';
import type { PaymentComplementImporter } from './cfdi-import.service';
import type { SatRoutesOptions } from './sat.routes';
import { createSandboxConnector } from './sat-connector';

/** The SAT link's services from the configuration (the sandbox connector is the only one today). */
export function createSatDeps(
  config: Pick<Config, 'satEncryptionKey' | 'satAutoApproveSeconds' | 'satSandboxDir' | 'appBaseUrl'>,
  services: {
    db: Db;
    mailer: Mailer;
    now: Clock;
    authenticity: CfdiAuthenticity;
    paymentComplements?: PaymentComplementImporter;
  },
): SatRoutesOptions {
  return {
    db: services.db,
    mailer: services.mailer,
    now: services.now,
    appBaseUrl: config.appBaseUrl,
    encryptionKey: config.satEncryptionKey,
    connector: createSandboxConnector(config.satSandboxDir),
    authenticity: services.authenticity,
    ...(services.paymentComplements ? { paymentComplements: services.paymentComplements } : {}),
    autoApproveSeconds: config.satAutoApproveSeconds,
  };
}
