import 'keen-slider/keen-slider.min.css';
import { Button } from '@blueprintjs/core';
import { type KeenSliderPlugin, useKeenSlider } from 'keen-slider/react';
import { type ReactNode, useState } from 'react';

/** Advances every `intervalMs`; pauses while the pointer is over the slider (keen-slider has no autoplay). */
function autoplay(intervalMs: number): KeenSliderPlugin {
  return (slider) => {
    let timeout: ReturnType<typeof setTimeout> | undefined;
    let hovered = false;
    const schedule = () => {
      clearTimeout(timeout);
      if (!hovered) timeout = setTimeout(() => slider.next(), intervalMs);
    };
    slider.on('created', () => {
      slider.container.addEventListener('mouseover', () => {
        hovered = true;
        clearTimeout(timeout);
      });
      slider.container.addEventListener('mouseout', () => {
        hovered = false;
        schedule();
      });
      schedule();
    });
    slider.on('dragStarted', () => clearTimeout(timeout));
    slider.on('animationEnded', schedule);
    slider.on('updated', schedule);
    slider.on('destroyed', () => clearTimeout(timeout));
  };
}

export interface CarouselProps {
  label: string;
  slides: ReactNode[];
  intervalMs: number;
  durationMs: number;
}

/** A looping, auto-playing carousel with previous/next buttons and a live region for the current slide. */
export function Carousel({ label, slides, intervalMs, durationMs }: CarouselProps) {
  const [current, setCurrent] = useState(0);
  const [ref, slider] = useKeenSlider<HTMLDivElement>(
    {
      loop: true,
      defaultAnimation: { duration: durationMs },
      slideChanged: (s) => setCurrent(s.track.details.rel),
    },
    [autoplay(intervalMs)],
  );
  return (
    <section aria-roledescription="carrusel" aria-label={label} className="flujo-carousel">
      <div ref={ref} className="keen-slider">
        {slides.map((slide, index) => (
          // biome-ignore lint/a11y/useSemanticElements: WAI-ARIA APG carousel pattern (role group per slide), not a form fieldset
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: slides are a fixed list
            key={index}
            className="keen-slider__slide"
            role="group"
            aria-roledescription="diapositiva"
            aria-label={`${index + 1} de ${slides.length}`}
            aria-hidden={index !== current}
          >
            {slide}
          </div>
        ))}
      </div>
      <div className="flujo-carousel-controls">
        <Button variant="minimal" text="Anterior" onClick={() => slider.current?.prev()} />
        <span aria-live="polite">
          {current + 1} / {slides.length}
        </span>
        <Button variant="minimal" text="Siguiente" onClick={() => slider.current?.next()} />
      </div>
    </section>
  );
}
