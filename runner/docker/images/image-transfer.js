// Images reach every engine without a registry: saved from the engine that has them (`docker save`
// through the Engine API) and loaded into the others (`docker load`), then checked by image id, so an
// engine never runs a different image under the same tag. An engine that already holds the very
// image (same id) gets nothing. Tags are content hashes of a local build: there is nothing to pull.
import { LabError } from '../../errors.js';
import { followProgress, inspectImageId } from './image-store.js';

/**
 * @param {{ name: string, docker: object }} source  the engine the images were built or found on
 * @param {{ name: string, docker: object }} target
 * @param {Map<number, { tag: string, id: string }>} images
 */
export async function copyImages(source, target, images, { onProgress = () => {} } = {}) {
  for (const { tag, id } of images.values()) {
    if ((await inspectImageId(target.docker, tag)) === id) {
      onProgress(`${target.name}: ${tag} is there`);
      continue;
    }
    onProgress(`${target.name}: sending ${tag} from ${source.name} (save → load)`);
    const began = Date.now();
    try {
      const tarStream = await source.docker.getImage(tag).get();
      await followProgress(target.docker, await target.docker.loadImage(tarStream), () => {});
    } catch (cause) {
      throw new LabError(
        'ERR_IMAGE_BUILD',
        `could not send ${tag} from engine ${source.name} to engine ${target.name}: ${cause.message}`,
        {
          hint: `check free disk space on ${target.name}; by hand: docker --context ${source.name} save ${tag} | docker --context ${target.name} load`,
          cause,
        },
      );
    }
    const loaded = await inspectImageId(target.docker, tag);
    if (loaded !== id) {
      throw new LabError(
        'ERR_IMAGE_BUILD',
        `engine ${target.name} holds ${tag} as ${loaded ?? 'nothing'} after loading it, expected ${id}`,
        {
          hint: `remove the image there (docker --context ${target.name} rmi ${tag}) and start again`,
        },
      );
    }
    onProgress(`${target.name}: ${tag} loaded in ${((Date.now() - began) / 1000).toFixed(1)} s, id checked`);
  }
}
