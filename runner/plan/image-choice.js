// Which image a cell's Node comes from (resolved against the engine by docker/images/base-image-choice.js):
// `image:` of an experiment is one choice for every Node major, or a mapping major → choice.
export const DEFAULT_IMAGE_CHOICE = 'auto';

export function pickImageChoice(image, major) {
  if (image === undefined || image === null) return DEFAULT_IMAGE_CHOICE;
  if (typeof image === 'string') return image;
  return image[String(major)] ?? DEFAULT_IMAGE_CHOICE;
}

/** Key of the images map: the major alone for the default choice (`images.get(24)`), else `24:<choice>`. */
export function imageKey(major, choice = DEFAULT_IMAGE_CHOICE) {
  return choice === DEFAULT_IMAGE_CHOICE ? Number(major) : `${major}:${choice}`;
}
