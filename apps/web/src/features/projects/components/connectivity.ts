/** docs/product.md §8 "Project save": what a project or environment form says when the server could not be reached. */
export const CONNECTIVITY_MESSAGE = 'We had connectivity issues, please try again.';
