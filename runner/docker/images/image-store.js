// What the engine holds: an image's id by reference, and the progress stream of a pull, build or import, whose
// failures arrive inside a 200 response.
/** The image's id, or undefined when the engine has no such image. */
export async function inspectImageId(docker, reference) {
  return (await inspectImage(docker, reference))?.Id;
}

export async function inspectImage(docker, reference) {
  try {
    return await docker.getImage(reference).inspect();
  } catch (error) {
    if (error.statusCode === 404) return undefined;
    throw error;
  }
}

// The engine reports failures inside a 200 response, as a JSON line with `error`.
export function followProgress(docker, stream, onEvent) {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error, output) => {
        const failed = output?.find((event) => event.error || event.errorDetail);
        if (error) reject(error);
        else if (failed) reject(new Error(failed.errorDetail?.message ?? failed.error));
        else resolve(output);
      },
      onEvent,
    );
  });
}
