import { H1 } from '@blueprintjs/core';
import type { demoRequestMachine } from '../../machines/demo-request.machine';
import { DemoRequestForm } from './demo-request-form';

export function DemoRequestPage({ machine }: { machine: typeof demoRequestMachine }) {
  return (
    <section aria-labelledby="demo-titulo" className="flujo-narrow">
      <H1 id="demo-titulo">Solicitar Demo</H1>
      <p>Déjanos tus datos y un especialista te mostrará cómo adelantar tus facturas con Flujo.</p>
      <DemoRequestForm machine={machine} />
    </section>
  );
}
