import { type Slide, SlideCarousel } from '../common/slide-carousel';

// Spec §1: the four login slides (timing, spec §9, lives in SlideCarousel).
const SLIDES: readonly Slide[] = [
  {
    title: 'El factoraje no es un crédito',
    body: 'Adelantas el cobro de lo que ya vendiste: no contratas deuda ni comprometes tu línea bancaria.',
  },
  {
    title: 'Mejora tu flujo de efectivo sin endeudarte',
    body: 'Convierte tus facturas por cobrar en liquidez para pagar nómina, proveedores e inventario.',
  },
  {
    title: 'Más rápido que un préstamo bancario',
    body: 'Sin trámites largos ni garantías: tus facturas autorizadas se pagan en menos de 24 horas.',
  },
  {
    title: 'Tú eliges qué facturas adelantar y cuándo',
    body: 'Decide factura por factura y elige la fecha; pagas solo por los días que adelantas.',
  },
];

export function LoginCarousel() {
  return <SlideCarousel id="beneficios-ingreso" label="Beneficios de Flujo" slides={SLIDES} />;
}
