/**
 * One-way imports (docs/ARCHITECTURE.md): domain → server / web, never back; web features never import each
 * other or the app shell; shared web code (components, lib) never imports a feature or the app; server
 * features never import each other, and the server's lower layers never import a feature.
 * Run by `npm run lint` (`depcruise src`); paths are resolved, so `../../x` counts as what it reaches.
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain is pure TypeScript: it imports nothing from the server or the web.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(server|web)/' },
    },
    {
      name: 'server-not-web',
      comment: 'The server never imports web code.',
      severity: 'error',
      from: { path: '^src/server/' },
      to: { path: '^src/web/' },
    },
    {
      name: 'web-not-server',
      comment: 'The web never imports server code; shared rules live in src/domain.',
      severity: 'error',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'feature-not-other-feature',
      comment:
        'A web feature never imports another feature: move what both need to src/web/components or lib.',
      severity: 'error',
      from: { path: '^src/web/features/([^/]+)/' },
      to: { path: '^src/web/features/', pathNot: '^src/web/features/$1/' },
    },
    {
      name: 'feature-not-app',
      comment: 'Features never import the app shell (router, layouts, providers); the app imports them.',
      severity: 'error',
      from: { path: '^src/web/features/' },
      to: { path: '^src/web/app/' },
    },
    {
      name: 'shared-web-not-features',
      comment: 'src/web/components and src/web/lib are shared: they import neither features nor the app.',
      severity: 'error',
      from: { path: '^src/web/(components|lib)/' },
      to: { path: '^src/web/(features|app)/' },
    },
    {
      name: 'server-feature-not-other-feature',
      comment:
        'A server feature never imports another feature: what both need lives one level up (auth, loans, audit, lib…).',
      severity: 'error',
      from: { path: '^src/server/features/([^/]+)/' },
      to: { path: '^src/server/features/', pathNot: '^src/server/features/$1/' },
    },
    {
      name: 'server-layers-not-features',
      comment:
        'The layers under the features (auth, db, audit, loans, jobs, storage, notify, pdf…) never import a feature; app.ts wires them.',
      severity: 'error',
      from: {
        path: '^src/server/',
        pathNot: '^src/server/(features/|app\\.ts$|main\\.ts$|test-support/)|\\.test\\.ts$',
      },
      to: { path: '^src/server/features/' },
    },
    {
      name: 'auth-below-loans',
      comment: 'Sign-in and who is acting (auth) sit below the loan rules: auth never imports loans.',
      severity: 'error',
      from: { path: '^src/server/auth/' },
      to: { path: '^src/server/loans/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    exclude: { path: '(^|/)(dist|data|node_modules)/' },
  },
};
