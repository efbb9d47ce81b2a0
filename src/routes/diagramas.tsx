import { createFileRoute } from '@tanstack/react-router';
import { DiagramsPage } from '../views/diagrams/diagrams-page';

export const Route = createFileRoute('/diagramas')({ component: DiagramsPage });
