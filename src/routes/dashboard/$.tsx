import { createFileRoute } from '@tanstack/react-router';
import { DashboardSectionPage } from '../../views/dashboard/dashboard-section-page';
import { requireSatLink } from './-guards';

export const Route = createFileRoute('/dashboard/$')({
  // Spec §2: every provider section needs an authorized SAT link, else /dashboard/sat-credentials/.
  beforeLoad: () => requireSatLink(),
  component: () => <DashboardSectionPage path={Route.useParams()._splat ?? ''} />,
});
