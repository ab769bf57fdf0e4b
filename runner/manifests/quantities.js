// The amounts a deployment file writes, read as Kubernetes and Docker Compose read them, and memory written back in
// the Docker notation of experiments.yml's `memory:`.

// Kubernetes' quantity (k8s.io/apimachinery resource.Quantity): a decimal with a binary (Ki…Ei) or decimal (n, u,
// m, k…E) suffix, or an exponent (1e3).
const KUBERNETES_QUANTITY =
  /^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?[0-9]+)?$/;
const KUBERNETES_SUFFIXES = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
};

// Compose's byte values (docker/go-units RAMInBytes): 512m, 1g, 1.5gb, 512Mi, 512MiB — powers of 1024 all.
const COMPOSE_BYTES = /^([0-9]+(?:\.[0-9]+)*) ?([kKmMgGtTpP])?[iI]?[bB]?$/;
const COMPOSE_UNITS = { k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40, p: 2 ** 50 };

/** "1500m" → 1.5, "512Mi" → 536870912, 2 → 2; undefined for what Kubernetes would refuse. */
export function parseKubernetesQuantity(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = KUBERNETES_QUANTITY.exec(value);
  if (!match) return undefined;
  const [, number, suffix] = match;
  if (suffix === undefined) return Number(number);
  if (/^[eE]/.test(suffix)) return Number(`${number}${suffix}`);
  return Number(number) * KUBERNETES_SUFFIXES[suffix];
}

/** Compose's `cpus`: a number or its text ("0.5"); undefined otherwise. */
export function parseComposeCpus(value) {
  const number = typeof value === 'string' && /^[0-9]*\.?[0-9]+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

/**
 * Compose's `mem_limit` / `deploy.resources.limits.memory`: bytes as a number, or 512m, 1g, 1.5gb; undefined
 * otherwise.
 */
export function parseComposeBytes(value) {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = COMPOSE_BYTES.exec(value.trim());
  if (!match) return undefined;
  const [, number, unit] = match;
  return Number(number) * (unit ? COMPOSE_UNITS[unit.toLowerCase()] : 1);
}

/**
 * A CPU amount as the lab takes it: rounded up to a millicore (the finest Kubernetes and the schema allow), so a
 * budget is never smaller than the one deployed.
 */
export function roundUpToMillicores(cpus) {
  return Math.ceil(cpus * 1000 - 1e-6) / 1000;
}

/** Bytes → Docker notation, exact: 536870912 → "512m", 1073741824 → "1g", 500000000 → "500000000". */
export function formatDockerMemory(bytes) {
  const whole = Math.ceil(bytes);
  for (const [unit, size] of [
    ['g', 2 ** 30],
    ['m', 2 ** 20],
    ['k', 2 ** 10],
  ])
    if (whole % size === 0) return `${whole / size}${unit}`;
  return String(whole);
}
