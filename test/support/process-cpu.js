const { readFileSync } = require('node:fs');

/**
 * A process's CPU as /proc/<pid>/stat gives it, in seconds (clock ticks of 1/100 s on
 * Linux; Node has no API for another process's CPU or for its children's): its own (user +
 * system), that of its children that ended and were waited for, and its parent's pid.
 * Undefined where there is no such file (no /proc, or the process is gone). For the test
 * run's CPU figures (cpu-environment.js, times-reporter.js).
 */
function processCpu(pid) {
  let stat;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat
    .slice(stat.lastIndexOf(') ') + 2)
    .split(' ')
    .map(Number);
  return { parent: fields[1], ownSeconds: (fields[11] + fields[12]) / 100, waitedChildrenSeconds: (fields[13] + fields[14]) / 100 };
}

module.exports = { processCpu };
