import 'keen-slider/keen-slider.min.css';
import { useKeenSlider } from 'keen-slider/react';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useHydrated } from './use-hydrated';

// Spec §9: the carousels advance every 10 s, loop, with a 400 ms transition.
export const CAROUSEL_INTERVAL_MS = 10_000;
export const CAROUSEL_TRANSITION_MS = 400;

export interface Slide {
  title: string;
  body: ReactNode;
}

/**
 * A looping carousel for the public pages. It follows the WAI-ARIA carousel pattern: a rotation button
 * first (WCAG 2.2.2 asks for a way to stop moving content), previous/next buttons, each slide a labelled
 * group, and the current slide announced only while rotation is off. Rotation also pauses while the
 * pointer or focus is inside, and never starts for visitors who ask for reduced motion.
 * Slides hold text only: hidden slides are aria-hidden, so they must not contain focusable elements.
 */
export function SlideCarousel({
  id,
  label,
  slides,
}: {
  id: string;
  label: string;
  slides: readonly Slide[];
}) {
  const hydrated = useHydrated();
  const [current, setCurrent] = useState(0);
  const [stopped, setStopped] = useState(false);
  const interacting = useRef(false);
  const [sliderRef, slider] = useKeenSlider<HTMLDivElement>({
    loop: true,
    defaultAnimation: { duration: CAROUSEL_TRANSITION_MS },
    slideChanged: (instance) => setCurrent(instance.track.details.rel),
  });

  useEffect(() => {
    if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) setStopped(true);
  }, []);

  useEffect(() => {
    if (stopped) return;
    const timer = setInterval(() => {
      if (!interacting.current) slider.current?.next();
    }, CAROUSEL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [stopped, slider]);

  const rotating = hydrated && !stopped;
  return (
    <section
      className="site-carousel"
      aria-roledescription="carrusel"
      aria-labelledby={id}
      onMouseEnter={() => {
        interacting.current = true;
      }}
      onMouseLeave={() => {
        interacting.current = false;
      }}
      onFocus={() => {
        interacting.current = true;
      }}
      onBlur={() => {
        interacting.current = false;
      }}
    >
      <h2 id={id} className="site-carousel__title">
        {label}
      </h2>
      <div className="site-carousel__controls">
        <button
          type="button"
          className="site-button site-button--ghost site-carousel__rotation"
          onClick={() => setStopped(rotating)}
          disabled={!hydrated}
        >
          {/* Both labels take the same cell, the idle one invisible: the button is as wide before hydration
              (rotation off) as after, so the controls beside it do not move. */}
          <span>{rotating ? 'Pausar rotación' : 'Reanudar rotación'}</span>
          <span aria-hidden="true" style={{ visibility: 'hidden' }}>
            {rotating ? 'Reanudar rotación' : 'Pausar rotación'}
          </span>
        </button>
        <button
          type="button"
          className="site-button site-button--ghost"
          onClick={() => slider.current?.prev()}
          disabled={!hydrated}
          aria-controls={`${id}-diapositivas`}
        >
          Anterior
        </button>
        <span className="site-carousel__position">
          {current + 1} de {slides.length}
        </span>
        <button
          type="button"
          className="site-button site-button--ghost"
          onClick={() => slider.current?.next()}
          disabled={!hydrated}
          aria-controls={`${id}-diapositivas`}
        >
          Siguiente
        </button>
      </div>
      <div
        id={`${id}-diapositivas`}
        ref={sliderRef}
        className="keen-slider site-carousel__track"
        aria-live={rotating ? 'off' : 'polite'}
      >
        {slides.map((slide, index) => (
          // biome-ignore lint/a11y/useSemanticElements: a carousel slide is an ARIA group (WAI-ARIA APG), not a form fieldset
          <div
            key={slide.title}
            className="keen-slider__slide site-carousel__slide"
            role="group"
            aria-roledescription="diapositiva"
            aria-label={`${index + 1} de ${slides.length}: ${slide.title}`}
            aria-hidden={index !== current}
          >
            <h3>{slide.title}</h3>
            <div>{slide.body}</div>
          </div>
        ))}
      </div>
    </section>
  );
}
