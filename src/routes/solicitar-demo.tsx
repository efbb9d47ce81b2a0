import { createFileRoute } from '@tanstack/react-router';
import { DemoRequestPage } from '../views/public/demo-request-page';
import { wiredDemoRequestMachine } from './-demo-request-machines';

export const Route = createFileRoute('/solicitar-demo')({
  component: () => <DemoRequestPage machine={wiredDemoRequestMachine} />,
});
