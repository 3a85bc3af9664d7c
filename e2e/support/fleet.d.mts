import type { ChildProcess } from 'node:child_process';
import type { Server } from 'node:http';

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  dataDir: string;
  stopping: boolean;
}

export function freePort(): Promise<number>;
export function migrate(env: NodeJS.ProcessEnv, logFile: string): void;
export function startInstance(options: {
  name: string;
  env: NodeJS.ProcessEnv;
  logDir: string;
  logName: string;
  onExit?: (name: string, how: NodeJS.Signals | number | null) => void;
}): Promise<Instance>;
export function stopInstances(instances: Instance[]): Promise<void>;
export function waitReady(url: string, child: ChildProcess, name: string, withinMs?: number): Promise<void>;
export function startProxy(port: number, upstreams: { name: string; port: number }[]): Promise<Server>;
