import type { FastifyPluginAsync } from 'fastify';
import { accountsService } from '../modules/accounts/accounts.routes';
import type { AccountsDeps } from '../modules/accounts/accounts-deps';
import type { SatRoutesOptions } from '../modules/sat/sat.routes';
import { satRoutes } from '../modules/sat/sat.routes';

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
