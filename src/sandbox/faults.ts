import { prng, type Rng } from './prng';

/**
 * Deterministic fault injection, for tests and demonstrations.
 * Spec: comma-separated `name=value`, e.g. `latency=20-80,error500=0.1,resetAfter=0.2,seed=7`.
 *  - latency=MS or MIN-MAX  added before answering
 *  - error500=P             answer 500 server_error before doing anything
 *  - error429=P             answer 429 rate_limit before doing anything
 *  - resetBefore=P          mutations: drop the connection before applying
 *  - resetAfter=P           mutations: apply, then drop the connection ("applied, reply lost")
 *  - malformed=P            apply, then answer 200 with a body that is not valid JSON
 *  - seed=N                 PRNG seed (default 1)
 */
export interface FaultSpec {
  readonly latencyMin: number;
  readonly latencyMax: number;
  readonly error500: number;
  readonly error429: number;
  readonly resetBefore: number;
  readonly resetAfter: number;
  readonly malformed: number;
  readonly seed: number;
}

export const NO_FAULTS: FaultSpec = {
  latencyMin: 0,
  latencyMax: 0,
  error500: 0,
  error429: 0,
  resetBefore: 0,
  resetAfter: 0,
  malformed: 0,
  seed: 1,
};

const RATES = ['error500', 'error429', 'resetBefore', 'resetAfter', 'malformed'] as const;

/** Parses a spec; throws an Error with a message fit for the command line. */
export function parseFaults(spec: string): FaultSpec {
  const out: Record<string, number> = { ...NO_FAULTS };
  for (const part of spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value = ''] = part.split('=', 2) as [string, string?];
    if (name === 'latency') {
      const m = /^(\d+)(?:-(\d+))?$/.exec(value);
      if (!m) throw new Error(`--faults: latency takes MS or MIN-MAX, got "${value}"`);
      out.latencyMin = Number(m[1]);
      out.latencyMax = Number(m[2] ?? m[1]);
      if (out.latencyMax < out.latencyMin) throw new Error('--faults: latency MIN-MAX needs MIN <= MAX');
    } else if (name === 'seed') {
      if (!/^\d+$/.test(value)) throw new Error(`--faults: seed takes a whole number, got "${value}"`);
      out.seed = Number(value);
    } else if ((RATES as readonly string[]).includes(name)) {
      const p = Number(value);
      if (value === '' || !Number.isFinite(p) || p < 0 || p > 1) {
        throw new Error(`--faults: ${name} takes a probability from 0 to 1, got "${value}"`);
      }
      out[name] = p;
    } else {
      throw new Error(`--faults: unknown fault "${name}" (known: latency, ${RATES.join(', ')}, seed)`);
    }
  }
  return out as unknown as FaultSpec;
}

type FaultDecision = {
  readonly latencyMs: number;
  readonly before: 'none' | 'error500' | 'error429' | 'reset';
  readonly after: 'none' | 'reset' | 'malformed';
};

/** Draws the fate of one request. Each draw consumes the same number of random values. */
export class Faults {
  #spec: FaultSpec = NO_FAULTS;
  #rng: Rng = prng(1);

  constructor(spec: FaultSpec = NO_FAULTS) {
    this.set(spec);
  }

  set(spec: FaultSpec | string): void {
    this.#spec = typeof spec === 'string' ? parseFaults(spec) : spec;
    this.#rng = prng(this.#spec.seed);
  }

  get spec(): FaultSpec {
    return this.#spec;
  }

  draw(isMutation: boolean): FaultDecision {
    const s = this.#spec;
    const r = Array.from({ length: 6 }, () => this.#rng());
    const latencyMs = s.latencyMin + Math.floor(r[0]! * (s.latencyMax - s.latencyMin + 1));
    let before: FaultDecision['before'] = 'none';
    if (r[1]! < s.error500) before = 'error500';
    else if (r[2]! < s.error429) before = 'error429';
    else if (isMutation && r[3]! < s.resetBefore) before = 'reset';
    let after: FaultDecision['after'] = 'none';
    if (before === 'none') {
      if (isMutation && r[4]! < s.resetAfter) after = 'reset';
      else if (r[5]! < s.malformed) after = 'malformed';
    }
    return { latencyMs, before, after };
  }
}
