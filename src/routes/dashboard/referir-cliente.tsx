import { createFileRoute } from '@tanstack/react-router';
import { ReferralPage } from '../../views/referral/referral-page';
import { wiredReferralMachine } from '../-referral-machines';
import { requireProvider, requireSatLink } from './-guards';

// Spec §2 'Referir cliente', guarded by the SAT link like every provider screen.
export const Route = createFileRoute('/dashboard/referir-cliente')({
  beforeLoad: () => {
    requireProvider();
    requireSatLink();
  },
  component: () => <ReferralPage machine={wiredReferralMachine} />,
});
