// Starts `inflight --headless` on a free 127.0.0.1 port for a Node end-to-end test.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

export async function startInflight(...options) {
  const binary = process.env.INFLIGHT_BIN;
  if (!binary) throw new Error('INFLIGHT_BIN must point at build/app/inflight');
  // Port 0: the kernel picks a free port and the first line of output names it.
  // INFLIGHT_HEADLESS_OPTIONS (e.g. --socket-thread) applies to every test's endpoint.
  const shared = (process.env.INFLIGHT_HEADLESS_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(binary, ['--headless', '--listen', '127.0.0.1:0', ...shared, ...options], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const [first] = await Promise.race([
    once(lines, 'line'),
    once(child, 'exit').then(([code]) => {
      throw new Error(`inflight exited with ${code} before listening`);
    }),
  ]);
  const match = /^Inflight endpoint listening on (http:\/\/\S+)$/.exec(first);
  if (!match) {
    child.kill('SIGKILL');
    throw new Error(`unexpected first line from inflight: ${first}`);
  }
  return {
    url: match[1],
    // SIGTERM, then the exit status (0 when it shut down cleanly).
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const [code] = await exited;
      return code;
    },
  };
}
