// The engines one matrix runs on, made ready before the first run: each reached and checked (API
// version, cgroup driver and version), the images on every one of them, each machine's CPUs read from
// the engine itself, engines of different machines refused unless that is what is being compared,
// every cell checked against the slots it may land on, the orphans of killed runners removed on every
// engine; then one watchdog and one executor per engine, and one lane per slot.
import { EventEmitter } from 'node:events';
import { LabError, LabErrors } from '../errors.js';
import { configError } from '../plan/plan-runs.js';
import { checkCellsFit, cutSlots } from '../plan/slots.js';
import { removeOrphanContainers, removeOwnContainers } from './runs/cleanup.js';
import { abandonEngine } from './engines/client.js';
import { DEFAULT_ENGINE, resolveEngine } from './engines/contexts.js';
import { connectEngine } from './engines/connect.js';
import { checkEngineFacts, probeEngineCpus, readEngineFacts } from './engines/engine-facts.js';
import { createDockerExecutor } from './runs/executor.js';
import { copyImages } from './images/image-transfer.js';
import { ensureImages } from './images/workload-image.js';
import { createLanes } from './runs/lanes.js';
import { watchEngine } from './engines/watchdog.js';

/**
 * The engine names of a matrix: --engine flags, else the config's top-level `engines:`, else the
 * values of `engine` axes, else `default` (DOCKER_HOST or the local socket). An `engine` axis may
 * only name engines of that list.
 */
export function chooseEngineNames({ flags = [], config, plans }) {
  const axisValues = [
    ...new Set(
      plans.flatMap((plan) => plan.cells.map((cell) => cell.values.engine).filter((value) => value !== undefined)),
    ),
  ];
  const names = [
    ...new Set(flags.length > 0 ? flags : (config.engines ?? (axisValues.length > 0 ? axisValues : [DEFAULT_ENGINE]))),
  ];
  const problems = [];
  for (const plan of plans) {
    (plan.experiment.matrix?.engine ?? []).forEach((value, index) => {
      if (!names.includes(value))
        problems.push(
          configError(
            config,
            ['experiments', plan.experiment.name, 'matrix', 'engine', index],
            `engine \`${value}\` is not one of the engines of this matrix (${names.join(', ')})`,
            `name it with --engine ${value}, or in the top-level \`engines:\` list`,
          ),
        );
    });
  }
  if (problems.length > 0) throw problems.length === 1 ? problems[0] : new LabErrors(problems);
  return names;
}

/**
 * @returns {Promise<{ engines: object[], lanes: object[], images: Map, describe(): object[],
 *   removeOwnContainers(): Promise<void>, close(): void }>}
 */
export async function openEngines({
  names,
  slots = 1,
  allowMixed = false,
  plans,
  config,
  setup = true,
  events = new EventEmitter(),
  connected = [],
}) {
  const onProgress = (line) => events.emit('image-progress', line);
  const engines = await Promise.all(
    names.map(async (name) => {
      const engine = await connectOne(name, { setup, onProgress });
      connected.push(engine);
      return engine;
    }),
  );
  const engineAxis = plans.every((plan) => plan.experiment.matrix?.engine !== undefined);
  checkSameMachines(engines, { engineAxis, allowMixed, detail: 'count' });
  // First from `docker info` (CPUs 0..n-1), before any image is sent or container started; again
  // below with the CPU ids a container really gets.
  cutAndCheckSlots(engines, slots, plans, config);

  const requests = plans.flatMap((plan) =>
    plan.cells.map(({ nodeMajor, imageChoice }) => ({ major: nodeMajor, choice: imageChoice })),
  );
  const [first, ...others] = engines;
  const images = await guard(first, ensureImages(first.docker, { requests, onProgress }));
  for (const engine of others) await guard(engine, copyImages(first, engine, images, { onProgress }));

  const probeImage = [...images.values()][0].tag;
  for (const engine of engines) {
    Object.assign(engine.facts, await guard(engine, probeEngineCpus(engine.docker, probeImage)));
    engine.sampleImage = probeImage;
  }
  checkSameMachines(engines, { engineAxis, allowMixed, detail: 'model' });
  cutAndCheckSlots(engines, slots, plans, config);

  for (const engine of engines) {
    const orphans = await guard(engine, removeOrphanContainers(engine.docker));
    events.emit('orphans', { ...orphans, engine: names.length > 1 ? engine.name : undefined });
  }
  for (const engine of engines) engine.executor = createDockerExecutor(engine.docker, images);
  return {
    engines,
    lanes: engines.flatMap(createLanes),
    images,
    describe: () =>
      engines.map(({ name, endpoint, facts, slots: cut }) => ({
        name,
        host: endpoint.host,
        source: endpoint.source,
        ...facts,
        slots: cut.map((slot) => slot.cpuset),
      })),
    removeOwnContainers: () => removeOwnContainersOn(engines),
    close: () => engines.forEach((engine) => engine.watchdog?.stop()),
  };
}

/** This runner's containers removed on every engine given (second Ctrl-C); an engine that fails is skipped. */
export function removeOwnContainersOn(engines) {
  return Promise.all(engines.map((engine) => removeOwnContainers(engine.docker).catch(() => [])));
}

async function connectOne(name, { setup, onProgress }) {
  const endpoint = resolveEngine(name);
  // The default engine keeps today's behaviour, setting up a local dockerd when there is none.
  const isDefault = endpoint.source === 'default';
  const { docker, version } = await connectEngine({
    host: isDefault ? process.env.DOCKER_HOST : endpoint,
    setup: isDefault && setup,
    onProgress,
  });
  // Watched from here on: an engine that hangs while being prepared must not hang the runner.
  const watchdog = watchEngine(docker, { onLost: () => abandonEngine(docker) });
  const engine = { name, endpoint, docker, version, watchdog };
  const facts = await guard(engine, readEngineFacts(docker));
  const problems = checkEngineFacts(facts);
  if (problems.length > 0) {
    throw new LabError(
      'ERR_PREFLIGHT',
      `engine ${name} (${endpoint.host}) cannot run this matrix: ${problems.join('; ')}`,
      {
        hint: 'use an engine with cgroup limits (a rootful dockerd, or rootless on cgroup v2 with the cpu and cpuset controllers delegated)',
      },
    );
  }
  return Object.assign(engine, { facts });
}

/** The step's result, or ERR_DOCKER_UNREACHABLE as soon as the engine's watchdog gives the engine up. */
async function guard(engine, step) {
  const { signal } = engine.watchdog;
  let onLost;
  const lost = new Promise((resolve, reject) => {
    onLost = () =>
      reject(
        new LabError(
          'ERR_DOCKER_UNREACHABLE',
          `engine ${engine.name} (${engine.endpoint.host}) stopped answering while being prepared: ${signal.reason?.message}`,
          {
            hint: `check that it is running and reachable (docker --context ${engine.name} info), then start again`,
            cause: signal.reason,
          },
        ),
      );
    if (signal.aborted) onLost();
    else signal.addEventListener('abort', onLost, { once: true });
  });
  try {
    return await Promise.race([step, lost]);
  } finally {
    signal.removeEventListener('abort', onLost);
    step.catch(() => {});
  }
}

// Runs of one cell spread over two different machines would mix two populations in one median.
export function checkSameMachines(engines, { engineAxis, allowMixed, detail }) {
  if (engines.length < 2 || engineAxis || allowMixed) return;
  const describe = (engine) =>
    detail === 'count'
      ? `${engine.facts.cpus} CPUs`
      : `${engine.facts.cpu_ids.length} usable CPUs, ${engine.facts.cpu_model}`;
  const kinds = new Set(engines.map(describe));
  if (kinds.size === 1) return;
  throw new LabError(
    'ERR_PREFLIGHT',
    `the engines differ in CPU ${detail}: ${engines.map((engine) => `${engine.name}: ${describe(engine)}`).join('; ')}`,
    {
      hint: 'make the engine a compared factor (`matrix: {engine: [a, b]}`), or pass --allow-mixed-engines to spread every cell over them anyway',
    },
  );
}

function cutAndCheckSlots(engines, slots, plans, config) {
  for (const engine of engines) engine.slots = cutSlots(engine.facts.cpu_ids, slots, engine.name);
  const problems = plans.flatMap((plan) => checkCellsFit(plan, engines));
  if (problems.length === 0) return;
  const errors = problems.map((problem) =>
    configError(config, problem.path, problem.message, 'narrow `cpus`/`cpuset`, or use fewer --slots'),
  );
  throw errors.length === 1 ? errors[0] : new LabErrors(errors);
}
