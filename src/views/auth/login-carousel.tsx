import { H3 } from '@blueprintjs/core';
import { Carousel } from '../common/carousel';

// Spec §1: the four login slides; §9: autoplay 10 s, loop, 400 ms transition.
const SLIDES = [
  {
    title: 'El factoraje no es un crédito',
    text: 'Adelantas el cobro de lo que ya vendiste: no contratas deuda ni comprometes tu línea bancaria.',
  },
  {
    title: 'Mejora tu flujo de efectivo sin endeudarte',
    text: 'Convierte tus facturas por cobrar en liquidez para pagar nómina, proveedores e inventario.',
  },
  {
    title: 'Más rápido que un préstamo bancario',
    text: 'Sin trámites largos ni garantías: tus facturas autorizadas se pagan en menos de 24 horas.',
  },
  {
    title: 'Tú eliges qué facturas adelantar y cuándo',
    text: 'Decide factura por factura y elige la fecha; pagas solo por los días que adelantas.',
  },
];

export function LoginCarousel() {
  return (
    <Carousel
      label="Beneficios de Flujo"
      intervalMs={10_000}
      durationMs={400}
      slides={SLIDES.map((slide) => (
        <div key={slide.title} className="flujo-slide">
          <H3>{slide.title}</H3>
          <p>{slide.text}</p>
        </div>
      ))}
    />
  );
}
