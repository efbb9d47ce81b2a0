import { createFileRoute } from '@tanstack/react-router';
import { TermsPage } from '../views/public/terms-page';

export const Route = createFileRoute('/terminos-y-condiciones')({ component: TermsPage });
