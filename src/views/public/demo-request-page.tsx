import './public.css';
import type { demoRequestMachine } from '../../machines/demo-request.machine';
import { Static } from '../common/static-html';
import { DemoRequestForm } from './demo-request-form';

export function DemoRequestPage({ machine }: { machine: typeof demoRequestMachine }) {
  return (
    <section aria-labelledby="demo-titulo" className="site-hero site-hero--split site-hero--top">
      <div>
        <p className="site-eyebrow">Demostración sin costo</p>
        <h1 id="demo-titulo">Solicitar Demo</h1>
        <p className="site-lead">
          Déjanos tus datos y un especialista te mostrará cómo adelantar tus facturas con Flujo o cómo ofrecer
          pronto pago a tus proveedores.
        </p>
        <div className="site-form-panel">
          <DemoRequestForm machine={machine} />
        </div>
      </div>
      <Static>
        <h2>Qué sigue después de enviar tus datos</h2>
        <ol className="site-demo-next">
          <li>Te escribimos o llamamos para acordar un horario que te acomode.</li>
          <li>En la llamada vemos cómo cobras o pagas hoy tus facturas y qué plazos manejas.</li>
          <li>Te mostramos la plataforma con facturas de ejemplo: cotización, autorización y depósito.</li>
          <li>Si decides continuar, te acompañamos en el registro y en tu primera operación.</li>
        </ol>
        <p className="site-note">
          Usamos tus datos solo para atender tu solicitud, como explica nuestro{' '}
          <a href="/politicas-de-privacidad/">aviso de privacidad</a>.
        </p>
      </Static>
    </section>
  );
}
