// Probe only: per-command DynamoDB latency for the file.
const { Client } = require('@smithy/core/client');
const stats = new Map<string, { n: number; ms: number; items: number }>();
const original = Client.prototype.send;
Client.prototype.send = function (command: any, ...rest: any[]) {
  const name = command.constructor.name;
  const t = performance.now();
  const p = original.call(this, command, ...rest);
  if (p && typeof p.then === 'function') {
    return p.finally(() => {
      const s = stats.get(name) ?? { n: 0, ms: 0, items: 0 };
      s.n++; s.ms += performance.now() - t; s.items += command.input?.TransactItems?.length ?? 0;
      stats.set(name, s);
    });
  }
  return p;
};
const fileStart = performance.now();
afterAll(() => {
  const rows = [...stats].sort((a, b) => b[1].ms - a[1].ms).map(([name, s]) => `${name.padEnd(32)} n=${String(s.n).padStart(5)} total ${(s.ms / 1000).toFixed(1).padStart(6)} s  mean ${(s.ms / s.n).toFixed(1).padStart(6)} ms${s.items ? `  items/tx ${(s.items / s.n).toFixed(1)}` : ''}`);
  process.stderr.write(`\n== ${expect.getState().testPath} wall ${((performance.now() - fileStart) / 1000).toFixed(1)} s\n${rows.join('\n')}\n`);
});
