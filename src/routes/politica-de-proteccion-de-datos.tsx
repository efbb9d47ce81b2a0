import { createFileRoute } from '@tanstack/react-router';
import { DataProtectionPage } from '../views/public/data-protection-page';

export const Route = createFileRoute('/politica-de-proteccion-de-datos')({ component: DataProtectionPage });
