// GET /metrics (SPEC §4): svc's own figures in Prometheus' text format, through prom-client, one
// registry per server (tests and the bench run several in one process). The server observes
// requests by route pattern (never the raw path: aliases would make every path a series) and
// what the ingest protocols accepted; the engine's figures are read when Prometheus scrapes.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DiskState, EngineFigures, LogFigures, ViewState } from '../../engine/index.js';

/** The states svc_disk_state has a series for. */
const DISK_STATES: readonly DiskState[] = ['ok', 'full', 'failed'];

/** Request durations: sub-millisecond writes up to long queries. */
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export type IngestProtocol = 'influx_line_protocol' | 'prometheus_remote_write';

export class ServerMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private readonly ingestRequests: Counter<'protocol'>;
  private readonly ingestLines: Counter<'protocol'>;
  private readonly ingestValues: Counter<'protocol'>;

  /**
   * `figures` reads the engine's (null while the database is still opening); `isCluster` adds
   * the figures of the logs a cluster node follows.
   */
  constructor(figures: () => EngineFigures | null = () => null, isCluster = false) {
    const registers = [this.registry];
    // The engine's cumulative figures, read when Prometheus scrapes.
    const engineCounter = (name: string, help: string, read: (f: EngineFigures) => number) => new Counter({
      name, help, registers,
      collect() {
        const f = figures();
        this.reset();
        if (f !== null) this.inc(read(f));
      },
    });
    engineCounter('svc_rows_ingested_total', 'Rows applied by writes since the database opened (inserts, line protocol, remote write)', (f) => f.rowsIngested);
    engineCounter('svc_wal_bytes_total', 'Bytes appended to the write-ahead log', (f) => f.walBytes);
    engineCounter('svc_wal_fsyncs_total', 'fdatasync rounds of the write-ahead log (each serves every writer waiting then)', (f) => f.walFsyncs);
    engineCounter('svc_checkpoints_total', 'Checkpoints written', (f) => f.checkpoints);
    engineCounter('svc_checkpoint_seconds_total', 'Time spent writing checkpoints', (f) => f.checkpointSeconds);
    engineCounter('svc_checkpoint_failures_total', 'Checkpoints that failed', (f) => f.checkpointFailures);
    engineCounter('svc_queries_total', 'Queries run (failed ones included)', (f) => f.queries);
    engineCounter('svc_query_seconds_total', 'Time spent running queries', (f) => f.querySeconds);
    engineCounter('svc_query_failures_total', 'Queries that failed', (f) => f.queryFailures);
    engineCounter('svc_memory_evictions_total', 'Columns and blob contents evicted from memory (they stay in checkpoint files)', (f) => f.memory.evictions);
    engineCounter('svc_memory_read_backs_total', 'Columns and blob contents read back from checkpoint files', (f) => f.memory.readBacks);
    engineCounter('svc_memory_read_back_bytes_total', 'Bytes read back from checkpoint files', (f) => f.memory.readBackBytes);
    // The memory budget now (docs/memory.md): what data may take, and what it takes.
    const memoryGauge = (name: string, help: string, read: (f: EngineFigures) => number) => new Gauge({
      name, help, registers,
      collect() {
        const f = figures();
        this.reset();
        if (f !== null) this.set(read(f));
      },
    });
    memoryGauge('svc_memory_limit_bytes', 'The memory budget for table data, tails and blob contents', (f) => f.memory.limit);
    memoryGauge('svc_memory_used_bytes', 'Memory the budget counts now: held + cached + scanning + pooled', (f) => f.memory.used);
    memoryGauge('svc_memory_held_bytes', 'Data that cannot leave memory yet (tails, batches and blobs no checkpoint holds)', (f) => f.memory.held);
    memoryGauge('svc_memory_cached_bytes', 'Data in memory that checkpoint files also hold (evictable)', (f) => f.memory.cached);
    memoryGauge('svc_memory_scanning_bytes', 'Buffers lent to large scans, which read back through them without caching', (f) => f.memory.scanning);
    // The worker threads (docs/workers.md).
    memoryGauge('svc_worker_threads', 'Worker threads for scans and ingest parsing (--parallelism-count; 0: everything on the main thread)', (f) => f.workers.threads);
    memoryGauge('svc_worker_busy_jobs', 'Jobs the worker threads are running or have queued now', (f) => f.workers.busy);
    engineCounter('svc_worker_jobs_total', 'Jobs run on worker threads (query parts, ingest bodies parsed)', (f) => f.workers.jobs);
    engineCounter('svc_worker_restarts_total', 'Worker threads that died and were replaced', (f) => f.workers.restarts);
    // The disk of the data directory against its floor (docs/disk.md).
    memoryGauge('svc_disk_free_bytes', 'Free bytes of the data directory\'s file system (the last statfs less what svc wrote since)', (f) => f.disk.free);
    memoryGauge('svc_disk_total_bytes', 'Size of the data directory\'s file system', (f) => f.disk.total);
    memoryGauge('svc_disk_min_free_bytes', 'The floor (--min-free-disk): below it writes that add data are refused', (f) => f.disk.floor);
    engineCounter('svc_disk_refusals_total', 'Requests refused with StorageFull (507): writes while the disk is below its floor or full (on a cluster node, reads too)', (f) => f.disk.refusals);
    engineCounter('svc_disk_no_space_errors_total', 'ENOSPC errors a write-ahead log append or a checkpoint met', (f) => f.disk.noSpaceErrors);
    new Gauge({
      name: 'svc_disk_state', help: 'The disk\'s state, 1 for the current one: ok; full (writes that add data refused until space is freed); failed (writes refused until a restart)', labelNames: ['state'], registers,
      collect() {
        const f = figures();
        this.reset();
        if (f !== null) for (const s of DISK_STATES) this.set({ state: s }, f.disk.state === s ? 1 : 0);
      },
    });
    // A cluster node's logs (docs/cluster.md), by log it follows.
    if (isCluster) {
      const logs = (): readonly LogFigures[] => figures()?.replication?.logs ?? [];
      const logGauge = (name: string, help: string, read: (l: LogFigures) => number | null) => new Gauge({
        name, help, registers, labelNames: ['log'],
        collect() {
          this.reset();
          for (const l of logs()) {
            const v = read(l);
            if (v !== null) this.set({ log: l.name }, v);
          }
        },
      });
      const logCounter = (name: string, help: string, read: (l: LogFigures) => number) => new Counter({
        name, help, registers, labelNames: ['log'],
        collect() {
          this.reset();
          for (const l of logs()) this.inc({ log: l.name }, read(l));
        },
      });
      logGauge('svc_cluster_applied_sequence', 'The highest sequence of the log applied on this node', (l) => l.appliedSeq);
      logGauge('svc_cluster_pending_messages', 'Messages of the log not yet delivered to this node (its lag)', (l) => l.pending);
      logCounter('svc_cluster_publish_retries_total', 'Message parts of this node\'s writes published to the log again after an unanswered or refused attempt', (l) => l.publishRetries);
      logCounter('svc_cluster_unstored_duplicates_total', 'Retries the log answered "duplicate" without a sequence (first attempt not stored yet)', (l) => l.unstoredDuplicates);
    }
    // Materialized views (docs/views.md): how far each is behind its source, and recent refreshes.
    engineCounter('svc_view_refreshes_total', 'Time ranges of materialized views computed again from their sources', (f) => f.views.refreshes);
    const viewGauge = (name: string, help: string, read: (v: ViewState) => number) => new Gauge({
      name, help, registers, labelNames: ['view'],
      collect() {
        this.reset();
        for (const v of figures()?.views.views ?? []) this.set({ view: v.name }, read(v));
      },
    });
    viewGauge('svc_view_lag_seconds', 'Age of the oldest change of a materialized view\'s source not yet in the view (0: up to date)', (v) => v.lagMs / 1000);
    viewGauge('svc_view_pending_ranges', 'Time ranges of a materialized view waiting to be computed again', (v) => v.pendingRanges);
    new Gauge({
      name: 'svc_view_refresh_lag_seconds', help: 'From a write\'s apply to the refresh that put it in its views, over the last 1024 refreshes: median, 99th percentile and worst', labelNames: ['quantile'], registers,
      collect() {
        const f = figures();
        this.reset();
        if (f === null || f.views.refreshes === 0) return;
        this.set({ quantile: '0.5' }, f.views.lagP50Ms / 1000);
        this.set({ quantile: '0.99' }, f.views.lagP99Ms / 1000);
        this.set({ quantile: '1' }, f.views.lagMaxMs / 1000);
      },
    });
    new Gauge({
      name: 'svc_last_checkpoint_seconds', help: 'Duration of the latest checkpoint (absent before the first)', registers,
      collect() {
        const last = figures()?.lastCheckpointSeconds ?? null;
        this.reset();
        if (last !== null) this.set(last);
      },
    });
    this.requests = new Counter({ name: 'svc_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.durations = new Histogram({ name: 'svc_http_request_duration_seconds', help: 'Time from a request\'s arrival to the end of its answer, by method and route pattern', labelNames: ['method', 'route'], buckets: DURATION_BUCKETS, registers });
    this.ingestRequests = new Counter({ name: 'svc_ingest_requests_total', help: 'Write requests of an ingest protocol applied (each whole: every line or none)', labelNames: ['protocol'], registers });
    this.ingestLines = new Counter({ name: 'svc_ingest_points_total', help: 'Points applied through an ingest protocol (line-protocol lines, remote-write samples)', labelNames: ['protocol'], registers });
    this.ingestValues = new Counter({ name: 'svc_ingest_field_values_total', help: 'Field values applied through an ingest protocol (a remote-write sample is one)', labelNames: ['protocol'], registers });
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_process_' });
    // prom-client also exports these gauges under a `_total` name, which promtool refuses for a
    // non-counter; the same figures stay under their names without the suffix.
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) {
      this.registry.removeSingleMetric(`svc_process_${name}`);
    }
  }

  /** One answered request; `route` is the matched route's pattern ('' when none matched). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const r = route === '' ? 'unmatched' : route;
    this.requests.inc({ method, route: r, status: String(status) });
    this.durations.observe({ method, route: r }, seconds);
  }

  /** One applied ingest request. */
  observeIngest(protocol: IngestProtocol, points: number, values: number): void {
    this.ingestRequests.inc({ protocol });
    this.ingestLines.inc({ protocol }, points);
    this.ingestValues.inc({ protocol }, values);
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
