/*
 * The elements of the top navigation the welcome walkthrough points at (docs/product.md §2 "Onboarding
 * walkthrough"), marked with `data-tour` so that the walkthrough finds them wherever they are drawn. An
 * element that is not on screen (in the closed navigation drawer of a phone) is not pointed at.
 */
export const TOUR_TARGETS = {
  environmentMenu: 'environment-menu',
  home: 'home',
  projectMenu: 'project-menu',
  help: 'help',
} as const;

export type TourTarget = (typeof TOUR_TARGETS)[keyof typeof TOUR_TARGETS];
