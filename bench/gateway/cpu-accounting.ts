import { readdirSync, readFileSync } from 'node:fs';

/**
 * Per-process CPU accounting for the gateway benchmark (Linux /proc). At 10 connections every row is CPU-bound on
 * the shared cores, so the ratio between rows is decided by how much CPU each request costs summed over ALL the
 * processes involved, not by the server alone. A snapshot reads utime+stime of the processes named below; the
 * difference of two snapshots divided by the requests answered in between is that row's CPU budget per request.
 */
export interface CpuGroups {
  /** The server process under test (or the instances under test) and their children. */
  server: number | number[];
  /** The publisher processes (examples/publisher-server). */
  publisher: number[];
}

export type CpuSnapshot = Record<'server' | 'postgres' | 'publisher' | 'loadGenerator' | 'machine', number>;

const TICK_MS = 1000 / 100; // CLK_TCK is 100 on Linux/x86-64 and arm64

function ticksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  } catch {
    return 0; // the process has gone
  }
}

function treeTicks(pid: number): number {
  let total = ticksOf(pid);
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    for (const kid of kids ? kids.split(/\s+/) : []) total += treeTicks(Number(kid));
  } catch {
    /* gone */
  }
  return total;
}

/** Every PostgreSQL process on the machine (backends, WAL writer, checkpointer…): the database's whole cost. */
function postgresTicks(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) total += ticksOf(Number(entry));
    } catch {
      /* gone */
    }
  }
  return total;
}

/** Busy time of the whole machine (all cores: /proc/stat minus idle and iowait). */
function machineTicks(): number {
  // The first line: "cpu  user nice system idle iowait irq softirq steal …" (in clock ticks).
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return user + nice + system + irq + softirq + steal;
}

export function snapshotCpu(groups: CpuGroups): CpuSnapshot {
  const self = process.cpuUsage();
  return {
    server: [groups.server].flat().reduce((sum, pid) => sum + treeTicks(pid), 0) * TICK_MS,
    postgres: postgresTicks() * TICK_MS,
    publisher: groups.publisher.reduce((sum, pid) => sum + ticksOf(pid), 0) * TICK_MS,
    // autocannon runs in this process
    loadGenerator: (self.user + self.system) / 1000,
    machine: machineTicks() * TICK_MS,
  };
}

export interface CpuPerRequest {
  server: number;
  postgres: number;
  publisher: number;
  loadGenerator: number;
  /** The four above. */
  total: number;
  /** Busy machine time not spent in them (kernel work for the loopback traffic, other users of the machine). */
  unaccounted: number;
}

const KEYS = ['server', 'postgres', 'publisher', 'loadGenerator', 'machine'] as const;

/** CPU spent between two snapshots (ms per group); deltas of several windows add up with addCpu. */
export function cpuDelta(before: CpuSnapshot, after: CpuSnapshot): CpuSnapshot {
  return Object.fromEntries(KEYS.map((k) => [k, after[k] - before[k]])) as CpuSnapshot;
}

export function addCpu(a: CpuSnapshot, b: CpuSnapshot): CpuSnapshot {
  return Object.fromEntries(KEYS.map((k) => [k, a[k] + b[k]])) as CpuSnapshot;
}

export const NO_CPU: CpuSnapshot = { server: 0, postgres: 0, publisher: 0, loadGenerator: 0, machine: 0 };

/** CPU milliseconds per answered request, per process group. */
export function cpuPerRequest(spent: CpuSnapshot, requests: number): CpuPerRequest {
  const per = (k: keyof CpuSnapshot) => spent[k] / Math.max(requests, 1);
  const round = (x: number) => Number(x.toFixed(3));
  const total = per('server') + per('postgres') + per('publisher') + per('loadGenerator');
  return {
    server: round(per('server')),
    postgres: round(per('postgres')),
    publisher: round(per('publisher')),
    loadGenerator: round(per('loadGenerator')),
    total: round(total),
    unaccounted: round(per('machine') - total),
  };
}
