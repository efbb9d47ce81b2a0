import { createFileRoute } from '@tanstack/react-router';
import { ContactPage } from '../views/public/contact-page';

export const Route = createFileRoute('/contacto')({ component: ContactPage });
