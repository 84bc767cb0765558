// Runs fauxqs (installed by compare.sh) on 127.0.0.1 only, without request logging.
// fauxqs 1.9 always listens on 0.0.0.0; this wraps net.Server.listen so that the benchmark never
// opens a port beyond this machine. Usage: node fauxqs_local.mjs FAUXQS_DIR PORT
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dir, port] = process.argv.slice(2);
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (options, ...rest) {
  if (options && typeof options === 'object' && (options.host === '0.0.0.0' || options.host === undefined))
    options = { ...options, host: '127.0.0.1' };
  return listen.call(this, options, ...rest);
};

const entry = pathToFileURL(path.join(dir, 'node_modules', 'fauxqs', 'dist', 'app.js'));
const { startFauxqs } = await import(entry.href);
const server = await startFauxqs({ port: Number(port), logger: false });
console.log(`fauxqs listening on http://127.0.0.1:${server.port}`);
const stop = async () => {
  await server.stop?.();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
