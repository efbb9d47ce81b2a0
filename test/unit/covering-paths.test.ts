import { describe, expect, it } from 'vitest';
import { coveringPaths, generatePaths, type MachineModel, measureCoverage } from '../model/harness/model';
import { invoiceLifecycleModel } from '../model/invoice-lifecycle.model';
import { quotationModel } from '../model/quotation.model';
import { reviewEvents, reviewMachine } from './review-fixture.machine';

const reviewModel: MachineModel = { id: 'review', machine: reviewMachine, events: reviewEvents };

// The browser runs a covering set of the generated paths (decision 0055): fewer paths, the same coverage.
describe('coveringPaths', () => {
  it.each([
    ['review fixture', reviewModel],
    ['invoice lifecycle', invoiceLifecycleModel],
    ['quotation', quotationModel],
  ])('%s: takes every transition and visits every leaf state the generated paths do', (_, model) => {
    const generated = generatePaths(model);
    const whole = measureCoverage(model, generated);
    const cover = coveringPaths(model, generated);
    expect(cover.transitions).toEqual(whole.transitions.covered);
    expect(cover.states).toEqual(whole.states.covered);
    expect(measureCoverage(model, cover.paths).transitions.covered).toEqual(whole.transitions.covered);
    // A subset, in generation order, and the same on every call (test names must be stable).
    const order = generated.map((path) => path.description);
    const chosen = cover.paths.map((path) => order.indexOf(path.description));
    expect(chosen.every((index) => index >= 0)).toBe(true);
    expect([...chosen].sort((a, b) => a - b)).toEqual(chosen);
    expect(coveringPaths(model, generatePaths(model)).paths.map((p) => p.description)).toEqual(
      cover.paths.map((p) => p.description),
    );
  });

  it('drops the paths whose transitions other paths already take', () => {
    expect(coveringPaths(invoiceLifecycleModel, generatePaths(invoiceLifecycleModel)).paths).toHaveLength(16);
    expect(coveringPaths(quotationModel, generatePaths(quotationModel)).paths).toHaveLength(11);
  });
});
