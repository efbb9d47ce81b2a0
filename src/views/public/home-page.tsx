import { Classes, H1 } from '@blueprintjs/core';
import { Link } from '@tanstack/react-router';

export function HomePage() {
  return (
    <section aria-labelledby="inicio-titulo">
      <H1 id="inicio-titulo">Cobra tus facturas hoy, sin deuda</H1>
      <p>
        Flujo adelanta el pago de las facturas que emites a tus clientes corporativos. Regístrate en menos de
        10 minutos, recibe tu pago en menos de 2 horas y elige qué facturas adelantar y cuándo.
      </p>
      <p>Para el comprador, la alianza no tiene costo.</p>
      <Link to="/solicitar-demo/" className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}>
        Solicitar demo
      </Link>
    </section>
  );
}
