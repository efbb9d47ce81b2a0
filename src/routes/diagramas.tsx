import { createFileRoute } from '@tanstack/react-router';
import { DiagramsPage } from '../views/diagrams/diagrams-page';
import { validateDiagramsSearch } from '../views/diagrams/diagrams-search';

export const Route = createFileRoute('/diagramas')({
  validateSearch: validateDiagramsSearch,
  component: DiagramsRoute,
});

function DiagramsRoute() {
  const { maquina } = Route.useSearch();
  return <DiagramsPage maquina={maquina} />;
}
