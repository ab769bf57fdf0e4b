// An image-like job done in JavaScript: a 3×3 box blur over a grey image, repeated. Synchronous
// CPU work on the calling thread: only worker threads or cluster processes run two at once.
export function blur({ width = 320, height = 240, passes = 4 }) {
  let pixels = new Uint8ClampedArray(width * height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  for (let pass = 0; pass < passes; pass++) {
    const out = new Uint8ClampedArray(pixels.length);
    for (let y = 1; y < height - 1; y++) {
      for (let x = 1; x < width - 1; x++) {
        let sum = 0;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) sum += pixels[(y + dy) * width + x + dx];
        out[y * width + x] = sum / 9;
      }
    }
    pixels = out;
  }
  let total = 0;
  for (const value of pixels) total += value;
  return { mean_brightness: total / pixels.length, megapixels: (width * height * passes) / 1e6 };
}
