import { fromPromise } from 'xstate';
import { operatorRolesOf } from '../domain/operator-roles';
import { paths } from '../domain/paths';
import type {
  MfaLoginRequest,
  OperatorLoginAnswer,
  OperatorSessionResponse,
} from '../domain/schemas/operator-session';
import type { LoginAttempt } from '../domain/session';
import { operatorSessionMachine } from '../machines/operator-session.machine';
import { loginCredentials } from '../services/captcha.service';
import { operatorLogin, verifyOperatorCode } from '../services/operator-session.service';
import { storeTokens } from '../services/session-tokens';
import { setUser } from '../stores/user.store';

// The operators' login (decision 0050) wired to the real calls, storage and navigation.

export const wiredOperatorSessionMachine = operatorSessionMachine.provide({
  actors: {
    login: fromPromise<OperatorLoginAnswer, LoginAttempt>(async ({ input }) =>
      operatorLogin(await loginCredentials(input)),
    ),
    verifyCode: fromPromise<OperatorSessionResponse, MfaLoginRequest>(({ input }) =>
      verifyOperatorCode(input),
    ),
  },
  actions: {
    startSession: (_, { session }) => {
      storeTokens(session);
      setUser({
        isAuthenticated: true,
        role: 'provider',
        isCorporate: false,
        hasFactoring: false,
        corporate_can_pay_costs: false,
        operatorRoles: operatorRolesOf(session.operator.roles),
        operatorName: `${session.operator.first_name} ${session.operator.last_name}`.trim(),
      });
      // A document load: the app's session machine restores this session from storage and keeps it fresh,
      // as for a returning visitor (decision 0050).
      window.location.assign(paths.operatorHome);
    },
  },
});
