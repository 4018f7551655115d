/**
 * Where the battery's processes run. A load generator on the cores of the server it measures adds
 * its own scheduling delays to the server's latency: on a 2-core machine the poller's bursts and the
 * product's event loop take turns on both cores, and the p99 measures the turns. So, where the
 * machine has two cores or more and Linux's `taskset` is there, the processes that answer (the
 * product and the bare-server floor it is compared with) run on the first half of the cores and the
 * processes that send load (the SDK poller, and the battery itself, which sends the event and
 * dashboard traffic) on the other half, as a load generator on a machine of its own would. `--no-pin` runs everything unpinned. The database server is not pinned.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const TASKSET = '/usr/bin/taskset';

export type CpuRole = 'answers' | 'load';

/** Read once, before the battery pins itself: afterwards its own affinity is the load cores only. */
const CORES = availableParallelism();

let enabled = CORES >= 2 && existsSync(TASKSET);

/** Turns pinning off (the `--no-pin` option). */
export function disablePinning(): void {
  enabled = false;
}

function cpuList(role: CpuRole): string {
  const half = Math.floor(CORES / 2);
  const [first, last] = role === 'answers' ? [0, half - 1] : [half, CORES - 1];
  return first === last ? String(first) : `${first}-${last}`;
}

/** How the battery places its processes, for the report's header. */
export function pinningDescription(): string {
  return enabled
    ? `product and floor on CPU ${cpuList('answers')}, SDK poller and battery on CPU ${cpuList('load')} (taskset)`
    : 'processes not pinned to CPUs';
}

/**
 * The command and arguments that run `command args` on the cores of `role`: `taskset -c <cpus>`
 * before it when pinning is on (taskset execs the command, so the child's pid is the command's).
 */
export function onCpus(role: CpuRole, command: string, args: readonly string[]): [string, string[]] {
  return enabled ? [TASKSET, ['-c', cpuList(role), command, ...args]] : [command, [...args]];
}

/** Moves the battery's own process, all its threads, onto the load cores (when pinning is on). */
export function pinSelfToLoadCpus(): void {
  if (!enabled) return;
  execFileSync(TASKSET, ['-a', '-p', '-c', cpuList('load'), String(process.pid)], { stdio: 'ignore' });
}
