import { createActorContext } from '@xstate/react';
import { sessionMachine } from '../../machines/session.machine';

/** The one app-wide session actor; the app provides the wired machine (src/routes/-app.tsx). */
export const SessionContext = createActorContext(sessionMachine);
