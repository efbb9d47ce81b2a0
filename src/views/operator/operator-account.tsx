import { Button } from '@blueprintjs/core';
import { LogOutIcon } from '@blueprintjs/icons';
import { useSnapshot } from 'valtio';
import { OPERATOR_ROLE_LABELS } from '../../domain/operator-roles';
import { userStore } from '../../stores/user.store';
import { SessionContext } from '../common/session-context';

/** The top bar's account corner: who is signed in, with which roles, and the way out (decision 0050). */
export function OperatorAccount() {
  const { operatorName, operatorRoles } = useSnapshot(userStore);
  const session = SessionContext.useActorRef();
  const roles = operatorRoles.map((role) => OPERATOR_ROLE_LABELS[role]).join(', ');
  return (
    <div className="operator-account">
      <span className="operator-account__who">
        <span className="operator-account__name">{operatorName || 'Operador'}</span>
        <span className="operator-account__roles">{roles}</span>
      </span>
      <Button
        variant="outlined"
        className="operator-account__logout"
        icon={<LogOutIcon />}
        text="Cerrar sesión"
        onClick={() => session.send({ type: 'session.logout' })}
      />
    </div>
  );
}
