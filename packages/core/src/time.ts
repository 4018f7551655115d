/** Time spans in milliseconds, for dates computed on the server and in the dashboard alike. */

/** One day: 24 hours. Dates count whole days in UTC, so no day is longer or shorter. */
export const DAY_MS = 24 * 60 * 60 * 1000;
