// The service's description (runner/service/) in the words init writes beside each key: where each budget, the
// memory limit, each knob and the request come from, and what was left out and why. Pure.
import { LabError } from '../errors.js';
import { parseCpuAmount } from '../domain/cpu-quantity.js';
import { describeSource } from '../manifests/budgets.js';
import { formatPoolCall } from '../user-code/pool-calls.js';
import { describeLeftOut } from '../service/deployment.js';
import { formatRoute } from '../service/request.js';

const CPUS_HINT = 'numbers of CPUs or Kubernetes CPU quantities, comma-separated: --cpus 1.5,2 or --cpus 500m,1500m';

/** --cpus 1.5,2: CPU amounts as experiments.yml takes them, each one the engine can give; null when not given. */
export function readGivenBudgets(given, cpus) {
  if (given === undefined) return null;
  const values = [given].flat().flatMap((each) => (typeof each === 'string' ? each.split(',') : [each]));
  const amounts = values.map((value) => {
    const text = typeof value === 'string' ? value.trim() : value;
    const amount = parseCpuAmount(typeof text === 'string' && /^[0-9.]+$/.test(text) ? Number(text) : text);
    if (amount === undefined)
      throw new LabError('ERR_USAGE', `--cpus: ${JSON.stringify(text)} is not a CPU amount`, { hint: CPUS_HINT });
    if (amount > cpus.count)
      throw new LabError(
        'ERR_USAGE',
        `--cpus: ${text} is more than the ${cpus.count} CPUs of this engine (${cpus.source}); Docker refuses a larger quota`,
        { hint: `give budgets up to ${cpus.count}, or run on a bigger engine (\`engines:\` in the file)` },
      );
    return amount;
  });
  return [...new Set(amounts)].sort((a, b) => a - b);
}

/**
 * @returns {{ values: { cpus: number, sources: string[] }[]|null, from?: string, axis?: string, summary?: string,
 *   notes: string[], notices: string[] }}  values null: none the engine can give (the file takes the engine's CPUs);
 *   notes: the file's header lines; notices: what was left out, for stderr
 */
export function describeBudgets(deployment, given, cpus) {
  const unread = (deployment?.warnings ?? []).map(
    (warning) => `${warning.shown}${warning.line ? `:${warning.line}` : ''}: ${warning.message}.`,
  );
  const { leftOut, skipped } = describeLeftOuts(deployment);
  if (given)
    return {
      values: given.map((amount) => ({ cpus: amount, sources: [] })),
      from: 'given with --cpus',
      axis: 'the budgets given with --cpus',
      summary: '--cpus',
      notes: [...unread, ...leftOut],
      notices: skipped,
    };
  const fits = deployment.budgets.filter((budget) => budget.cpus <= cpus.count);
  const over = deployment.budgets.filter((budget) => budget.cpus > cpus.count);
  const folder = deployment.looked === '.' ? 'this folder' : deployment.looked;
  const where = deployment.looked
    ? `in ${folder}${deployment.files.length > 0 ? ` (read: ${deployment.files.join(', ')})` : ''}`
    : `in ${deployment.files.join(', ')}`;
  const none =
    deployment.files.length === 0
      ? 'No Kubernetes manifest or Compose file'
      : over.length > 0
        ? 'No CPU budget this engine can give'
        : 'No CPU limit or request for the container that serves your app';
  const notes = [
    ...(fits.length === 0 ? [`${none} ${where}; name your budgets with --from FILE or --cpus 1.5,2.`] : []),
    ...over.map(
      (budget) =>
        `Left out: ${budget.cpus} CPUs (${budget.sources.map(describeSource).join('; ')}), more than this engine's ${cpus.count}; run it on a bigger engine (\`engines:\`).`,
    ),
    ...deployment.without.map((source) => `No CPU limit or request, so no budget: ${describeSource(source)}.`),
    ...leftOut,
    ...unread,
  ];
  if (fits.length === 0) return { values: null, notes, notices: skipped };
  const files = [...new Set(fits.flatMap((budget) => budget.sources.map((source) => source.file)))];
  return {
    values: fits.map((budget) => ({
      cpus: budget.cpus,
      sources: budget.sources.map(
        (source, index) =>
          `${index === 0 ? '' : 'and '}${describeSource(source)} (${source.cpu.field} ${source.cpu.written}, line ${source.cpu.line})`,
      ),
    })),
    from: 'the limit of the container that serves your app, with its source under `cpus:`',
    axis: 'the limit of the container that serves your app:',
    summary: files.join(', '),
    notes,
    notices: skipped,
  };
}

// Sidecars and init containers (in the file's header), and Compose files not read beside Kubernetes (on stderr).
function describeLeftOuts(deployment) {
  if (!deployment) return { leftOut: [], skipped: [] };
  const leftOut = (deployment.leftOut ?? []).map(({ source, why }) => `Left out: ${describeLeftOut(source)}: ${why}.`);
  const skipped = deployment.skipped
    ? [
        `left out ${deployment.skipped.sources.map(describeLeftOut).join('; ')}: a Compose file beside Kubernetes manifests is taken for development, not production; to measure its budgets too: init ${deployment.skipped.flag}`,
      ]
    : [];
  return { leftOut, skipped };
}

/** The memory limit of the container that serves the app (the smallest, when several serve), and where it is set. */
export function describeMemory(memory) {
  if (!memory) return undefined;
  const named = (source) =>
    `${describeSource(source)} (${source.memory.field} ${source.memory.written}, line ${source.memory.line})`;
  const oom = 'past it a run is killed and recorded as `oom`, as the container would be';
  if (memory.sources.length === 1 && memory.others.length === 0 && memory.unlimited.length === 0)
    return {
      docker: memory.docker,
      lines: [`the memory limit of the container that serves your app, ${named(memory.sources[0])}: ${oom}`],
    };
  return {
    docker: memory.docker,
    lines: [
      `the smallest memory limit of the containers that serve your app, for every budget: a setting must fit everywhere; ${oom}:`,
      ...[...memory.sources, ...memory.others].map(named),
      ...memory.unlimited.map((source) => `${describeSource(source)}: no memory limit`),
    ],
  };
}

/**
 * The knobs to vary, only those the service has in production, each with where production sets it: the libuv pool
 * where the code calls on it, processes where the service runs as several (node:cluster in its entry point, a
 * variable it reads, or replicas), a worker pool's size where the code reads it from a variable.
 * @returns {{ axes: { name: string, values: (number|string)[], comment: string, more: string[], production: string
 *   }[], notes: string[] }}  notes: knobs left out, and why
 */
export function describeKnobs(service, kind, budgets, cpus) {
  if (kind === 'command') return { axes: [], notes: [] };
  const top = Math.ceil(budgets ? Math.max(...budgets.map((budget) => budget.cpus)) : cpus.count);
  const many = Math.max(2, top);
  const shown = service.shown;
  const axes = [];
  const notes = [];
  const pool = describePool(service, top);
  if (pool.axis) axes.push(pool.axis);
  else notes.push(pool.none);
  if (kind === 'script') {
    axes.push({
      name: 'workers',
      values: [0, many],
      comment: 'worker threads sharing the calls: the way sync code runs in parallel',
      more: [],
      production: 'a pool of worker threads running the function (piscina), as docs/own-code.md says',
    });
    return { axes, notes };
  }
  const processes = describeProcesses(service, kind, many, shown);
  if (processes.axis) axes.push(processes.axis);
  if (processes.none) notes.push(processes.none);
  for (const found of service.knobs.pools)
    axes.push({
      name: found.name,
      values: ['1', String(many)],
      comment: `your worker pool's size, which your code reads from ${found.name}`,
      more: [`${shown(found.file)}:${found.line}`],
      production: `${found.name} in the service's environment (${shown(found.file)}:${found.line} sizes its pool from it)`,
    });
  if (service.knobs.pools.length === 0)
    notes.push('no workers: your code starts no worker pool whose size it reads from a variable');
  return { axes, notes };
}

// The libuv pool is a knob of this code when it calls what runs on it: 1, Node's default 4, and powers of two up to
// twice the largest budget's CPUs (pool work that computes gains up to the CPUs; work that waits, fs or dns, may
// gain beyond). A service that sets UV_THREADPOOL_SIZE itself overrides the variable: then no axis.
function describePool(service, top) {
  const found = service.pool;
  const shown = service.shown;
  const sets = service.knobs.env.find((each) => each.name === 'UV_THREADPOOL_SIZE' && each.sets);
  if (sets)
    return {
      none: `no uv_threadpool_size: your code sets UV_THREADPOOL_SIZE itself (${shown(sets.file)}:${sets.line}), over the environment's`,
    };
  if (!found || found.calls.length === 0) {
    const packages =
      found?.packages.length > 0
        ? `; the packages it imports are not read (${found.packages.join(', ')}): one that uses the pool (a native addon such as bcrypt) makes it a knob, add \`uv_threadpool_size: [1, 4]\``
        : '';
    const unread =
      found?.unread.length > 0
        ? `; not read: ${found.unread.map((each) => `${shown(each.file)} (${each.why})`).join(', ')}`
        : '';
    return {
      none: `no uv_threadpool_size: no call in your ${found?.files.length === 1 ? 'module' : `${found?.files.length ?? 0} files`} runs on libuv's pool${packages}${unread}`,
    };
  }
  const values = [];
  for (let size = 1; size <= Math.max(4, 2 * top); size *= 2) values.push(size);
  return {
    axis: {
      name: 'uv_threadpool_size',
      values,
      comment: `libuv pool (UV_THREADPOOL_SIZE): 1 to twice the CPUs, with Node's default 4; your code calls on it:`,
      more: found.calls.map((call) => formatPoolCall(call, service.folder)),
      production: "UV_THREADPOOL_SIZE in the service's environment",
    },
  };
}

// Processes: `cluster` (the lab forks your module) for an app, the variable itself for a start command.
function describeProcesses(service, kind, many, shown) {
  const { cluster } = service.knobs;
  const replicas = service.deployment?.replicas;
  if (cluster?.count) {
    const where = `${shown(cluster.file)}:${cluster.line} forks node:cluster workers, as many as ${cluster.count}`;
    return kind === 'start'
      ? {
          axis: {
            name: cluster.count,
            values: [...new Set(['1', String(many), ...(cluster.today ? [cluster.today.value] : [])])],
            comment: `processes: your entry point forks this many node:cluster workers`,
            more: [where],
            production: `${cluster.count} in the service's environment (${where})`,
            // Unset, the code forks its fallback's count: the setting it runs today, which the answer keeps when
            // it is within the margin (recommend.default).
            today: cluster.today
              ? {
                  value: cluster.today.value,
                  why: `${cluster.count} unset, ${shown(cluster.today.file)}:${cluster.today.line} takes ${cluster.today.value}`,
                }
              : null,
          },
        }
      : {
          axis: {
            name: 'cluster',
            values: [0, many],
            comment: 'node:cluster processes serving (0: one process), as your entry point forks them:',
            more: [where],
            production: `${cluster.count}=N in the service's environment (${where})`,
          },
        };
  }
  if (kind === 'http-app' && (cluster || replicas)) {
    const way = cluster
      ? `${shown(cluster.file)}:${cluster.line} forks node:cluster workers`
      : `${describeSourceShort(replicas.source)} runs replicas (${replicas.count}): N replicas each with 1/N of the budget`;
    return {
      axis: {
        name: 'cluster',
        values: [0, many],
        comment: 'node:cluster processes serving (0: one process), the way your service runs as several:',
        more: [way],
        production: way,
      },
    };
  }
  return {
    none:
      kind === 'start'
        ? `no process count: your entry point forks no node:cluster workers from a variable it reads${replicas ? ` (replicas are the orchestrator's: measure one replica's budget)` : ''}`
        : 'no cluster: your entry point forks no node:cluster workers, reads no process count, and your Deployment sets no replicas',
  };
}

function describeSourceShort(source) {
  return `${source.file}: ${source.object}`;
}

/**
 * The request's lines for the file: what is sent, why this one, and the app's other routes.
 * @returns {{ method, path, headers, body, status: number, lines: string[], others: string[] }}
 */
export function describeRequest(chosen, { service, table, engine }) {
  const shown = service.shown;
  const place = (route) =>
    route?.handlers?.[0] ? ` (${shown(route.handlers[0].file)}:${route.handlers[0].line})` : '';
  const name = table?.framework && `${table.framework[0].toUpperCase()}${table.framework.slice(1)}`;
  const framework = name ? `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} route` : null;
  const reached = chosen.route?.reached?.length
    ? `: ${chosen.route.reached.map((call) => formatPoolCall(call, service.folder)).join(', ')}`
    : '';
  const read = engine
    ? table
      ? `read from your built app${framework ? `: ${framework}${place(chosen.route)}` : ''}, ${chosen.why}${reached}`
      : chosen.why
    : `your app's routes were not read: no engine answered (init builds your app in a locked-down container to read them); \`run\` sends it once before the first measured run`;
  return {
    method: chosen.method,
    path: chosen.path,
    headers: chosen.headers ?? {},
    body: chosen.body ?? '',
    status: 200,
    lines: [read],
    others: chosen.others.map((route) => `${formatRoute(route)}${place(route)}`),
  };
}
