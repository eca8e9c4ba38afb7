// SPEC §22's floor for `toolrun exec math_eval`: a script that loads mathjs naively, builds its
// evaluator and prints the result. CommonJS, as toolrun's own entry is.
'use strict';
const { create, all } = require('mathjs');

const math = create(all);
process.stdout.write(`${JSON.stringify({ result: math.evaluate(process.argv[2]) })}\n`);
