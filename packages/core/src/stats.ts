/**
 * The thresholds of an experiment's statistics that the server computes with and the dashboard
 * explains (docs/product.md §9). The statistics themselves run on the server.
 */

/** Confidence at which a winner is declared (docs/product.md §9 "Experiment winner at 95 % confidence"). */
export const WINNING_CONFIDENCE = 0.95;
