import { createFileRoute } from '@tanstack/react-router';

// PLACEHOLDER of the issue 19 foundation: the section's owner replaces this file (contract /tmp/contracts-19.md).
export const Route = createFileRoute('/operacion/ingresar')({
  component: () => <h1>Ingresar</h1>,
});
