import { createFileRoute } from '@tanstack/react-router';
import { CorporateAlliancesPage } from '../views/public/corporate-alliances-page';
import { wiredAlliancesDemoRequestMachine } from './-demo-request-machines';

// Opened from inside the app; a visitor's first load gets the prerendered page (decision 0007).
export const Route = createFileRoute('/alianzas-corporativas')({
  component: () => <CorporateAlliancesPage demoMachine={wiredAlliancesDemoRequestMachine} />,
});
