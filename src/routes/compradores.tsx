import { createFileRoute } from '@tanstack/react-router';
import { BuyersPage } from '../views/public/buyers-page';

export const Route = createFileRoute('/compradores')({ component: BuyersPage });
