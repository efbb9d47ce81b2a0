import { Generator, getConfig } from '@tanstack/router-generator';

// Regenerates src/routeTree.gen.ts without a full build (the vite plugin does the same on build and dev).
const config = getConfig(
  { target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes' },
  process.cwd(),
);
await new Generator({ config, root: process.cwd() }).run();
