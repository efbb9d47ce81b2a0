import { createFileRoute } from '@tanstack/react-router';
import { ProvidersPage } from '../views/public/providers-page';

export const Route = createFileRoute('/proveedores')({ component: ProvidersPage });
