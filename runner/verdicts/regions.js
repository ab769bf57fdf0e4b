// What settles a question, as regions of the ratio B / A: a claim's `expect` (holds / refuted), and an automatic
// step along an axis (a change either way, or no change beyond the equivalence band).

/**
 * Half-width of the band an automatic step must stay inside to be called "no change": ±5%. Narrower needs more
 * runs than a default matrix makes (3 runs with cv 2% give an interval of about ±4.5%); wider would call real
 * effects of 5–10% "no change".
 */
export const STEP_EQUIVALENCE = 0.05;

/** `expect: model` without a tolerance: the measurement agrees with the model within ±10%. */
export const MODEL_TOLERANCE = 0.1;

/**
 * The `expect` forms → regions, holds first. `{model: W}` needs the pair's model ratio (runner/model/): [] without one.
 * @param {object} expect
 * @param {{ modelRatio?: number|null }} [pair]
 */
export function expectRegions(expect, { modelRatio = null } = {}) {
  if (expect.model !== undefined)
    return modelRatio === null ? [] : expectRegions({ ratio: modelRatio, within: expect.model });
  if (expect.same !== undefined) return expectRegions({ ratio: 1, within: expect.same });
  if (expect.ratio !== undefined) {
    const low = expect.ratio * (1 - expect.within);
    const high = expect.ratio * (1 + expect.within);
    return [
      { label: 'holds', low, high },
      { label: 'refuted', low: 0, high: low },
      { label: 'refuted', low: high, high: Infinity },
    ];
  }
  if (expect.below !== undefined)
    return [
      { label: 'holds', low: 0, high: expect.below },
      { label: 'refuted', low: expect.below, high: Infinity },
    ];
  return [
    { label: 'holds', low: expect.above, high: Infinity },
    { label: 'refuted', low: 0, high: expect.above },
  ];
}

/** `{ratio: 0.5, within: 0.1}` → "ratio in [0.45, 0.55]": what the claim expects, in the CSV and the reports. */
export function formatExpect(expect) {
  const round = (value) => String(Number(value.toPrecision(6)));
  if (expect.model !== undefined) return `the capacity model's ratio within ±${round(expect.model * 100)}%`;
  if (expect.same !== undefined)
    return `same within ±${round(expect.same * 100)}%: ratio in [${round(1 - expect.same)}, ${round(1 + expect.same)}]`;
  if (expect.ratio !== undefined)
    return `ratio in [${round(expect.ratio * (1 - expect.within))}, ${round(expect.ratio * (1 + expect.within))}]`;
  if (expect.below !== undefined) return `ratio below ${round(expect.below)}`;
  return `ratio above ${round(expect.above)}`;
}

/**
 * A step's regions: a change is called only when the interval excludes 1; "no change" only when it lies inside
 * ±STEP_EQUIVALENCE. A small change that is also inside the band is called a change (it excludes 1).
 * Times (ms) get faster / slower, other metrics lower / higher.
 */
export function stepRegions(unit, band = STEP_EQUIVALENCE) {
  const [down, up] = unit === 'ms' ? ['faster', 'slower'] : ['lower', 'higher'];
  return [
    { label: down, low: 0, high: 1 },
    { label: up, low: 1, high: Infinity },
    { label: 'no-change', low: 1 - band, high: 1 + band },
  ];
}

export const CHANGE_VERDICTS = new Set(['faster', 'slower', 'lower', 'higher']);
