import type { FastifyPluginAsync } from 'fastify';
import type { SatRoutesOptions } from '../sat/sat.routes';
import { satRoutes } from '../sat/sat.routes';
import { accountsService } from './accounts.routes';
import type { AccountsDeps } from './accounts-deps';

export interface UserServiceOptions {
  accounts: AccountsDeps;
  sat: SatRoutesOptions;
}

/**
 * The user service (mounted at /api/accounts/): session, sign-up, profile, password change, demo request
 * and the SAT link (/ciec/). Self-contained, so it can be mounted without the invoices service.
 */
export const userService: FastifyPluginAsync<UserServiceOptions> = async (app, { accounts, sat }) => {
  await app.register(accountsService, accounts);
  await app.register(satRoutes, sat);
};
