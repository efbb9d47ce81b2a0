import { createFileRoute } from '@tanstack/react-router';
import { DashboardSectionPage } from '../../views/dashboard/dashboard-section-page';

// Placeholder until the SAT-link screen lands; the route path is fixed here so guards can name it.
export const Route = createFileRoute('/dashboard/sat-credentials')({
  component: () => <DashboardSectionPage path="sat-credentials" />,
});
