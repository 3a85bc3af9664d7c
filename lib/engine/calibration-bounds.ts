/**
 * How far a knowledge base's own gate threshold may move from the shipped one (gate-calibration.ts sets it from the
 * calibration questions; bench/engine-quality/README.md, stops 35 and 39, measured these bounds held out).
 */
export interface CalibrationBounds {
  /** The share of foreign calibration questions the threshold refuses. */
  share: number;
  /** Log-odds the threshold may go below the shipped one, for a knowledge base whose foreign questions all score far below. */
  floor: number;
  /** Log-odds above the share's question that a lowered threshold keeps. */
  margin: number;
  /** Log-odds the threshold may rise above the shipped one: past this it refuses more of a broad knowledge base's own questions than it saves. */
  rise: number;
}

export const CALIBRATION_BOUNDS: CalibrationBounds = { share: 0.95, floor: 2.5, margin: 0, rise: 0.4 };
