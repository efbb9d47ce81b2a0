import { CorporateAlliancesPage } from '../../views/public/corporate-alliances-page';
import { DemoRequestPage } from '../../views/public/demo-request-page';
import { wiredAlliancesDemoRequestMachine, wiredDemoRequestMachine } from '../-demo-request-machines';

// The two public pages whose form calls the user service, wired the same way as their SPA routes.
export function WiredDemoRequestPage() {
  return <DemoRequestPage machine={wiredDemoRequestMachine} />;
}

export function WiredCorporateAlliancesPage() {
  return <CorporateAlliancesPage demoMachine={wiredAlliancesDemoRequestMachine} />;
}
