/**
 * Where the environment dropdown of spec §2 sits in the top navigation (projects grouped, colour
 * swatch, laptop icon for local environments). It is built with the environments screens; until then
 * the slot renders nothing.
 */
export function EnvironmentSlot() {
  return null;
}
