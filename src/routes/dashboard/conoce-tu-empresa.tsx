import { createFileRoute } from '@tanstack/react-router';
import { KnowYourBusinessPage } from '../../views/know-your-business/know-your-business-page';
import {
  KNOW_YOUR_BUSINESS_TABS,
  type KnowYourBusinessTab,
} from '../../views/know-your-business/know-your-business-tabs';
import { KNOW_YOUR_BUSINESS_PANELS } from '../-know-your-business-panels';
import { requireProvider, requireSatLink } from './-guards';

// Spec §2 'Conoce tu empresa': three tabs; the open one lives in the URL (?pestana=), so Back and a shared
// link keep it.
export const Route = createFileRoute('/dashboard/conoce-tu-empresa')({
  validateSearch: (raw: Record<string, unknown>): { pestana?: KnowYourBusinessTab } => {
    const tab = KNOW_YOUR_BUSINESS_TABS.find((candidate) => candidate === raw.pestana);
    return tab ? { pestana: tab } : {};
  },
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: KnowYourBusinessRoute,
});

function KnowYourBusinessRoute() {
  const { pestana } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <KnowYourBusinessPage
      tab={pestana ?? KNOW_YOUR_BUSINESS_TABS[0]}
      onTabChange={(tab) => void navigate({ search: { pestana: tab }, replace: true })}
      panels={KNOW_YOUR_BUSINESS_PANELS}
    />
  );
}
