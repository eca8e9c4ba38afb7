// Baseline for the scanner: the bare loop a script would write, readline + JSON.parse on each line.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

let lines = 0;
let bad = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[2]), crlfDelay: Infinity })) {
  lines++;
  try {
    JSON.parse(line);
  } catch {
    bad++;
  }
}
console.log(lines, bad);
