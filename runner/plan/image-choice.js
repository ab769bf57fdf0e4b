// Which image a cell's Node comes from (resolved against the engine by docker/base-images.js):
// `image:` of an experiment is one choice for every Node major, or a mapping major → choice.
export const DEFAULT_IMAGE_CHOICE = 'auto';

export function pickImageChoice(image, major) {
  if (image === undefined || image === null) return DEFAULT_IMAGE_CHOICE;
  if (typeof image === 'string') return image;
  return image[String(major)] ?? DEFAULT_IMAGE_CHOICE;
}
