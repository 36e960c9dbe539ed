/**
 * The `GET /katalog` body as JSON text, rebuilt only where the live state changed.
 *
 * Each request reads every input of every summary (name, mode, gvk, workers, resync, state, uptime, mount) and
 * compares it with the inputs the CRD's cached JSON fragment was made from: a fragment is reused only when all of
 * them are equal, and the whole body only when every fragment, their order and the leader block are. Nothing is
 * keyed on a fingerprint or a timer, so a change is in the very next response; what the cache saves is building
 * and serialising summaries that did not change (in practice: all of them between two whole seconds of uptime).
 *
 * The text is byte for byte `JSON.stringify(listOf(crds, mount, leader))` (bodies.ts), which the tests check over
 * random sequences of state changes.
 *
 * Caveats: fragments are held in a `WeakMap` keyed by the {@link CrdView} objects, so a view that hands out new
 * objects on every call gets no reuse (and no leak). A getter that throws leaves the previous body in place for
 * the next request to compare against, never half of a new one.
 */
import type { CrdState } from '../observe/health.js';
import { formatDuration } from '../util/duration.js';
import type { CrdView, LeaderView } from './view.js';

/** Writes `GET /katalog` bodies; one per router (its cache is its own). */
export interface KatalogListWriter {
  /** The JSON text of `{"total","crds"[,"leader"]}` for the CRDs in this order, under `mount`. */
  write(crds: readonly CrdView[], mount: string, leader: LeaderView | undefined): string;
}

/**
 * A CRD's summary as JSON, cut where its inputs change at different rates: `head` (name, mode, gvk, workers,
 * resync: fixed while the CRD is managed, save gvk on activation), `endpoints` (name and mount), then state and
 * uptime (uptime every whole second). It records the inputs its pieces were made from.
 */
interface Fragment {
  readonly name: string;
  readonly mode: string;
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly workers: number;
  readonly resyncMs: number;
  /** `{"name":…,"mode":…,"gvk":{…},"workers":…,"resync":…` (no closing brace). */
  readonly head: string;
  readonly mount: string;
  /** `{"health":…,"info":…}` */
  readonly endpoints: string;
  readonly state: CrdState;
  readonly uptime: string;
  /** The whole summary. */
  readonly text: string;
}

const STATE_JSON: Readonly<Record<CrdState, string>> = { pending: '"pending"', healthy: '"healthy"', degraded: '"degraded"' };

/** The JSON of `state`; also right for a value outside the type that a hand-written view might hand over. */
function stateJson(state: CrdState): string {
  return Object.hasOwn(STATE_JSON, state) ? STATE_JSON[state] : JSON.stringify(state);
}

function headOf(name: string, mode: string, group: string, version: string, kind: string, workers: number, resyncMs: number): string {
  const json = JSON.stringify({ name, mode, gvk: { group, version, kind }, workers, resync: formatDuration(resyncMs) });
  return json.slice(0, -1);
}

function endpointsOf(mount: string, name: string): string {
  const info = `${mount}/katalog/${name}`;
  return JSON.stringify({ health: `${info}/health`, info });
}

/** Creates a writer with an empty cache. */
export function katalogListWriter(): KatalogListWriter {
  const fragments = new WeakMap<CrdView, Fragment>();
  let lastTexts: readonly string[] = [];
  let lastLeader = '';
  let lastBody: string | undefined;

  /** The summary of `crd` as it is now: the cached text when every input is unchanged, else rebuilt from its pieces. */
  const fragmentOf = (crd: CrdView, mount: string): string => {
    const name = crd.name;
    const mode = crd.mode;
    const { group, version, kind } = crd.gvk;
    const settings = crd.settings;
    const workers = settings.workers.value;
    const resyncMs = settings.resync.value;
    const health = crd.health;
    const state = health.state;
    const uptime = health.uptime;
    const f = fragments.get(crd);
    const sameHead = f !== undefined && f.name === name && f.mode === mode && f.group === group && f.version === version && f.kind === kind && f.workers === workers && f.resyncMs === resyncMs;
    const sameEndpoints = f !== undefined && f.mount === mount && f.name === name;
    if (sameHead && sameEndpoints && f.uptime === uptime && f.state === state) return f.text;
    // Everything is computed before anything is stored: a throw leaves the fragment as it was, whole.
    const head = sameHead ? f.head : headOf(name, mode, group, version, kind, workers, resyncMs);
    const endpoints = sameEndpoints ? f.endpoints : endpointsOf(mount, name);
    const text = `${head},"healthy":${state === 'healthy' ? 'true' : 'false'},"uptime":${JSON.stringify(uptime)},"endpoints":${endpoints},"state":${stateJson(state)}}`;
    fragments.set(crd, { name, mode, group, version, kind, workers, resyncMs, head, mount, endpoints, state, uptime, text });
    return text;
  };

  return {
    write(crds, mount, leader) {
      const n = crds.length;
      const texts = new Array<string>(n);
      let changed = n !== lastTexts.length || lastBody === undefined;
      for (let i = 0; i < n; i++) {
        const crd = crds[i];
        const text = crd === undefined ? 'null' : fragmentOf(crd, mount);
        texts[i] = text;
        if (text !== lastTexts[i]) changed = true;
      }
      const leaderText = leader === undefined ? '' : `,"leader":${JSON.stringify(leader)}`;
      if (!changed && leaderText === lastLeader && lastBody !== undefined) return lastBody;
      const body = `{"total":${n},"crds":[${texts.join(',')}]${leaderText}}`;
      lastTexts = texts;
      lastLeader = leaderText;
      lastBody = body;
      return body;
    },
  };
}
