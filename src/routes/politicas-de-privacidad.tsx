import { createFileRoute } from '@tanstack/react-router';
import { PrivacyPage } from '../views/public/privacy-page';

export const Route = createFileRoute('/politicas-de-privacidad')({ component: PrivacyPage });
