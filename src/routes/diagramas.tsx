import { createFileRoute } from '@tanstack/react-router';
import { DiagramsPage, validateDiagramsSearch } from '../views/diagrams/diagrams-page';

export const Route = createFileRoute('/diagramas')({
  validateSearch: validateDiagramsSearch,
  component: DiagramsRoute,
});

function DiagramsRoute() {
  const { maquina } = Route.useSearch();
  return <DiagramsPage maquina={maquina} />;
}
