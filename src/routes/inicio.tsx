import { createFileRoute } from '@tanstack/react-router';
import { HomePage } from '../views/public/home-page';

export const Route = createFileRoute('/inicio')({ component: HomePage });
