import { createFileRoute } from '@tanstack/react-router';
import { CalculatorPage } from '../views/public/calculator-page';

export const Route = createFileRoute('/calculadora')({ component: CalculatorPage });
