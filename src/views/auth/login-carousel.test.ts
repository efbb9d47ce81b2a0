// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CAROUSEL_INTERVAL_MS, CAROUSEL_TRANSITION_MS } from '../common/slide-carousel';
import { LoginCarousel } from './login-carousel';

const TITLES = [
  'El factoraje no es un crédito',
  'Mejora tu flujo de efectivo sin endeudarte',
  'Más rápido que un préstamo bancario',
  'Tú eliges qué facturas adelantar y cuándo',
];

beforeEach(() => {
  vi.useFakeTimers();
  // NOTE: happy-dom lays nothing out and keen-slider measures its track; without a size it never moves.
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(
    DOMRect.fromRect({ width: 400, height: 300 }),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function advance(ms: number): Promise<void> {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

const carousel = () => screen.getByRole('region', { name: 'Beneficios de Flujo' });
const position = () => carousel().querySelector('.site-carousel__position')?.textContent;
/** The one slide not hidden from assistive technology. */
const shownTitle = () =>
  [...carousel().querySelectorAll('[aria-roledescription="diapositiva"]')]
    .filter((slide) => slide.getAttribute('aria-hidden') !== 'true')
    .map((slide) => slide.querySelector('h3')?.textContent);
const trackTransform = () => (carousel().querySelector('.keen-slider__slide') as HTMLElement).style.transform;

describe('LoginCarousel', () => {
  it('uses the spec §9 timing: 10 s per slide, 400 ms transition', () => {
    expect(CAROUSEL_INTERVAL_MS).toBe(10_000);
    expect(CAROUSEL_TRANSITION_MS).toBe(400);
  });

  it('shows the four slides of spec §1, advancing every 10 s and looping after the fourth', async () => {
    render(createElement(LoginCarousel));
    expect(position()).toBe('1 de 4');
    expect(shownTitle()).toEqual([TITLES[0]]);

    await advance(CAROUSEL_INTERVAL_MS - 1);
    expect(position()).toBe('1 de 4');
    for (const index of [1, 2, 3, 0]) {
      await advance(index === 1 ? 1 + CAROUSEL_TRANSITION_MS : CAROUSEL_INTERVAL_MS);
      expect(position()).toBe(`${index + 1} de 4`);
      expect(shownTitle()).toEqual([TITLES[index]]);
    }
  });

  it('moves from one slide to the next in 400 ms', async () => {
    render(createElement(LoginCarousel));
    await advance(CAROUSEL_INTERVAL_MS + CAROUSEL_TRANSITION_MS - 1);
    const almost = trackTransform();
    await advance(1);
    const settled = trackTransform();
    expect(settled).not.toBe(almost);
    await advance(CAROUSEL_TRANSITION_MS);
    expect(trackTransform()).toBe(settled);
  });

  it('pauses while the pointer is over it or focus is inside (WCAG 2.2.2)', async () => {
    render(createElement(LoginCarousel));
    fireEvent.mouseEnter(carousel());
    await advance(3 * CAROUSEL_INTERVAL_MS);
    expect(position()).toBe('1 de 4');
    fireEvent.mouseLeave(carousel());
    await advance(CAROUSEL_INTERVAL_MS + CAROUSEL_TRANSITION_MS);
    expect(position()).toBe('2 de 4');

    act(() => screen.getByRole('button', { name: 'Anterior' }).focus());
    await advance(3 * CAROUSEL_INTERVAL_MS);
    expect(position()).toBe('2 de 4');
    act(() => screen.getByRole('button', { name: 'Anterior' }).blur());
    await advance(CAROUSEL_INTERVAL_MS + CAROUSEL_TRANSITION_MS);
    expect(position()).toBe('3 de 4');
  });

  it('stops on request and never rotates for visitors who ask for reduced motion', async () => {
    render(createElement(LoginCarousel));
    fireEvent.click(screen.getByRole('button', { name: 'Pausar rotación' }));
    await advance(3 * CAROUSEL_INTERVAL_MS);
    expect(position()).toBe('1 de 4');
    cleanup();

    const matchMedia = window.matchMedia.bind(window);
    vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
      query === '(prefers-reduced-motion: reduce)'
        ? ({ ...matchMedia(query), matches: true, media: query } as MediaQueryList)
        : matchMedia(query),
    );
    render(createElement(LoginCarousel));
    expect(screen.getByRole('button', { name: 'Reanudar rotación' })).toBeTruthy();
    await advance(3 * CAROUSEL_INTERVAL_MS);
    expect(position()).toBe('1 de 4');
  });
});
