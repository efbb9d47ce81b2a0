import { createFileRoute } from '@tanstack/react-router';
import { DashboardSectionPage } from '../../views/dashboard/dashboard-section-page';

export const Route = createFileRoute('/dashboard/$')({
  component: () => <DashboardSectionPage path={Route.useParams()._splat ?? ''} />,
});
