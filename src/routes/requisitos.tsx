import { createFileRoute } from '@tanstack/react-router';
import { RequirementsPage } from '../views/public/requirements-page';

export const Route = createFileRoute('/requisitos')({ component: RequirementsPage });
