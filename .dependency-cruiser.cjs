/**
 * The layers of vtbench, bottom to top, written once. A file may import only from its own layer or
 * from a layer below it, and no import circle is allowed between files (type-only imports count:
 * a circle of types is still a circle a reader must hold in mind). docs/architecture.md explains
 * each layer; test/unit/layers.test.ts runs these rules over the tree and over a planted circle.
 *
 *   npx depcruise --config .dependency-cruiser.cjs src mock bench run.mjs
 */
const LAYERS = [
  ['types', '^src/types/'], // types and constants; imports nothing of the project
  ['compute', '^src/compute/'], // pure computation: stats, theory, analysis, flags
  ['adapters', '^src/adapters/'], // the outside world: JDK and processes, PostgreSQL, host, files
  ['mock', '^mock/'], // the mock LLM, a program of its own
  ['load', '^src/load/'], // load drivers
  ['plan', '^src/plan/'], // options, profiles, plans, manifests for Kubernetes
  ['pipeline', '^src/pipeline/'], // a run: components, cells, resume, merge
  ['report', '^src/report/'], // report, compare, thresholds
  ['studies', '^src/studies/'], // the studies, as plugins
  ['cli', '^(src/cli/|bench/|run\\.mjs$)'], // the commands
];

const upward = LAYERS.flatMap(([name, path], i) =>
  i === LAYERS.length - 1
    ? []
    : [{
        name: `layer-${name}`,
        comment: `${name} imports only from ${LAYERS.slice(0, i + 1).map((l) => l[0]).join(', ')}`,
        severity: 'error',
        from: { path },
        to: { path: LAYERS.slice(i + 1).map((l) => l[1]) },
      }],
);

module.exports = {

  forbidden: [
    {
      name: 'no-circular',
      comment: 'an import circle between files',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...upward,
  ],
  required: [
    {
      // a `required` rule, not a `forbidden` one: a forbidden rule looks at imports, so it would never
      // see a stray file that imports nothing. A module in no layer is required to import something
      // no path matches (the empty path), which none can, so each such module is reported once.
      name: 'in-a-layer',
      comment: 'every source file belongs to a layer (add its folder to LAYERS)',
      severity: 'error',
      module: { path: '^(src|mock|bench)/', pathNot: LAYERS.map((l) => l[1]) },
      to: { path: '^$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['node_modules', '\\.d\\.ts$'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
