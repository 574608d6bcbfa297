/**
 * `podscope scenario list [--json]` and `podscope scenario run NAME [--cri LAB_ENDPOINT] [--speed X] [--json]`:
 * the training scenarios, headless. A run happens on an embedded simulated node (default) or on a
 * lab runtime through the driver, observed by the engine; it prints each step with its narration
 * and what was observed. Exit status: 0 when every expected outcome was observed, 1 otherwise,
 * 2 on usage errors.
 */
import { findScenario, learnText, loadLibrary, type LearnLocale } from '@/server/scenarios/library';
import { runScenario, type ScenarioResult, type StepResult } from '@/server/scenarios/runner';
import { needsSimulator, type Scenario } from '@/server/scenarios/schema';
import { DEFAULT_SPEED, startSession } from '@/server/scenarios/session';
import { UsageError, type Command } from '../command';
import { parse } from '../lib/args';

const usage = `Usage: podscope scenario list [--json] [--lang en|zh-CN]
       podscope scenario run NAME [--cri LAB_ENDPOINT] [--speed X] [--json] [--lang en|zh-CN]

Training scenarios (CrashLoopBackOff, ImagePullBackOff, OOMKilled, init containers, sidecars,
graceful termination, a node losing contact, …) run headless. Podscope's kubelet stand-in puts
the scenario's pods on a runtime and the engine derives what the kubelet would report; every
step lists what it expected and what it observed.

  list                    one line per scenario: id and title
  run NAME                run one scenario
  --cri LAB_ENDPOINT      run on this runtime instead of an embedded simulated node. It must be
                          a disposable lab runtime (e.g. a private containerd): pods are created
                          and deleted on it. Scenarios that inject faults need the simulator.
  --speed X               simulator clock speed (default ${DEFAULT_SPEED}: 10 s of kubelet time per second)
  --json                  one JSON document on stdout
  --lang en|zh-CN         language of titles and narration (default en)

Exit status: 0 when every expected outcome was observed, 1 otherwise, 2 on usage errors.`;

function lang(value: string | undefined): LearnLocale {
  if (value === undefined || value === 'en') return 'en';
  if (value === 'zh-CN') return 'zh-CN';
  throw new UsageError(`--lang ${value}: choose en or zh-CN`);
}

const text = (id: string | undefined, locale: LearnLocale) =>
  id ? (learnText(id, locale) ?? id) : '';

function listing(locale: LearnLocale) {
  return loadLibrary().map((s) => ({
    id: s.id,
    title: text(s.title, locale),
    summary: text(s.summary, locale),
    level: s.level,
    topics: s.topics,
    simulatorOnly: needsSimulator(s),
    steps: s.steps.length,
  }));
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

function stepLine(scenario: Scenario, r: StepResult): string {
  const mark = r.status === 'passed' ? 'ok  ' : r.status === 'failed' ? 'FAIL' : 'skip';
  const took =
    r.startedAt !== undefined && r.endedAt !== undefined
      ? ` (${seconds(r.endedAt - r.startedAt)})`
      : '';
  return `${mark} [${r.index + 1}/${scenario.steps.length}] ${r.do}${r.target ? ` ${r.target}` : ''}${took}`;
}

function printStep(scenario: Scenario, r: StepResult, locale: LearnLocale): void {
  const lines = [stepLine(scenario, r)];
  if (r.say) lines.push(`     ${text(r.say, locale)}`);
  for (const c of r.checks)
    lines.push(
      `     ${c.ok ? '✓' : '✗'} ${c.expected}${c.ok ? '' : `\n         observed: ${c.observed}`}`,
    );
  if (r.error) lines.push(`     error: ${r.error}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

function jsonResult(
  scenario: Scenario,
  result: ScenarioResult,
  locale: LearnLocale,
  where: string,
) {
  return {
    id: scenario.id,
    title: text(scenario.title, locale),
    runtime: where,
    ok: result.ok,
    durationMs: result.durationMs,
    steps: result.steps.map((s) => ({ ...s, ...(s.say ? { text: text(s.say, locale) } : {}) })),
    cleanup: result.cleanup,
  };
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, {
    cri: { type: 'string' },
    speed: { type: 'string' },
    json: { type: 'boolean', default: false },
    lang: { type: 'string' },
  });
  const locale = lang(values.lang);
  const [name, ...extra] = positionals;
  if (!name) throw new UsageError('scenario run needs a NAME (see `podscope scenario list`)');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const scenario = findScenario(name);
  if (!scenario) {
    throw new UsageError(
      `no scenario "${name}"; known: ${loadLibrary()
        .map((s) => s.id)
        .join(', ')}`,
    );
  }
  if (values.cri !== undefined && values.speed !== undefined) {
    throw new UsageError('--speed sets the simulator clock; a --cri lab runtime runs in real time');
  }
  if (values.cri !== undefined && needsSimulator(scenario)) {
    throw new UsageError(
      `scenario ${scenario.id} injects faults into the runtime: it runs only on the embedded simulator`,
    );
  }
  if (values.cri !== undefined && !/^(unix:\/\/\/|tcp:\/\/|\/)/.test(values.cri)) {
    throw new UsageError(
      `--cri ${values.cri}: an endpoint is unix:///path, /path or tcp://host:port`,
    );
  }
  let speed: number | undefined;
  if (values.speed !== undefined) {
    speed = Number(values.speed);
    if (!(speed > 0) || !Number.isFinite(speed) || speed > 1000) {
      throw new UsageError(`--speed ${values.speed}: a number between 0 and 1000`);
    }
  }

  const logs: string[] = [];
  const session = await startSession({
    ...(values.cri !== undefined ? { cri: values.cri } : {}),
    ...(speed !== undefined ? { speed } : {}),
    backoffScale: scenario.driver?.backoffScale ?? 1,
    apiServer: scenario.apiServer,
    log: (line) => logs.push(line),
  });
  const where = values.cri ?? `embedded simulated node (speed ${speed ?? DEFAULT_SPEED}×)`;
  let result: ScenarioResult;
  try {
    if (!values.json) {
      process.stdout.write(
        `${scenario.id}: ${text(scenario.title, locale)}\n${text(scenario.summary, locale)}\non ${where}\n\n`,
      );
    }
    result = await runScenario(scenario, {
      driver: session.driver,
      clock: session.clock,
      observe: () => session.observe(),
      ...(session.simControl ? { simControl: session.simControl } : {}),
      ...(session.api ? { api: session.api } : {}),
      ...(values.json ? {} : { onStepDone: (r) => printStep(scenario, r, locale) }),
    });
  } finally {
    await session.stop();
  }
  if (values.json) {
    process.stdout.write(`${JSON.stringify(jsonResult(scenario, result, locale, where))}\n`);
  } else {
    for (const r of result.steps) if (r.status === 'skipped') printStep(scenario, r, locale);
    for (const problem of result.cleanup) process.stdout.write(`cleanup: ${problem}\n`);
    const failedLogs = result.ok ? [] : logs.slice(-10);
    if (failedLogs.length > 0)
      process.stdout.write(`\nlast driver/engine messages:\n  ${failedLogs.join('\n  ')}\n`);
    process.stdout.write(
      `\n${result.ok ? 'PASS' : 'FAIL'} ${scenario.id}: ${result.steps.filter((s) => s.status === 'passed').length}/${result.steps.length} steps in ${seconds(result.durationMs)} of scenario time\n`,
    );
  }
  return result.ok ? 0 : 1;
}

export const scenarioCommand: Command = {
  name: 'scenario',
  summary: 'list or run the training scenarios headless (simulator or a lab runtime)',
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'list') {
      const { values, positionals } = parse(rest, {
        json: { type: 'boolean', default: false },
        lang: { type: 'string' },
      });
      if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
      const list = listing(lang(values.lang));
      if (values.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`);
      } else {
        const width = Math.max(...list.map((s) => s.id.length));
        process.stdout.write(
          `${list.map((s) => `${s.id.padEnd(width)}  ${s.title}`).join('\n')}\n`,
        );
      }
      return 0;
    }
    if (sub === 'run') return run(rest);
    throw new UsageError(
      sub ? `unknown subcommand "${sub}" (list or run)` : 'give a subcommand: list or run',
    );
  },
};
