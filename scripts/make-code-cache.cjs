// Makes dist/math-evaluate.cjs.cache, V8's code cache for the math worker's bundle (see
// src/tools/worker/load-cached-script.ts). It runs the bundle once, parser built and one expression
// evaluated, so that the functions used on every call are in the cache too.
const { readFileSync, writeFileSync } = require('node:fs');
const { Script } = require('node:vm');
const { join } = require('node:path');

const file = join(__dirname, '..', 'dist', 'math-evaluate.cjs');
const source = readFileSync(file, 'utf8');
// Must match wrapCommonJs() in load-cached-script.ts byte for byte.
const script = new Script(`(function (exports, require, module) {${source}\n})`, { filename: file });
const module_ = { exports: {} };
script.runInThisContext()(module_.exports, require, module_);
module_.exports.loadSafeMath();
const warmUp = ['2+2', 'sqrt(2) * 3', '5 cm to mm', '[1, 2; 3, 4] * 2'];
Promise.all(warmUp.map((expression) => module_.exports.mathEval({ expression }))).then(() => writeFileSync(`${file}.cache`, script.createCachedData()));
