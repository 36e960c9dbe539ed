/** What the HTTP handlers share. */
import type { Cluster } from '../cluster.js';

export interface ServerContext {
  readonly cluster: Cluster;
  /** Period of BOOKMARK events for watches that allow them. */
  readonly bookmarkIntervalMs: number;
  /** A watch whose client lags by more than this many bytes is ended cleanly. */
  readonly maxWatchBufferBytes: number;
  /** kube-apiserver's WatchList feature: streaming lists (`sendInitialEvents`) are served; without it, refused. */
  readonly watchList: boolean;
}
