/** A worker-pool task that talks to the console, as pdf-lib and TensorFlow.js do (lib/platform/worker-pool.test.ts). */
export function doubleNoisily(n: number): number {
  console.log('noise on stdout');
  console.warn('noise on stderr');
  process.stdout.write('written straight to stdout\n');
  return n * 2;
}
