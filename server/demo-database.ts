// The embedded demo database that `npm run build` prepares (scripts/build-server.ts): a PGlite data
// directory made by this checkout's code (the empty cluster, every migration, the seed), closed.
// A start with SEED_ON_START on an empty embedded data directory copies it instead of creating
// the cluster (PGlite's initdb alone took seconds of CPU), then migrates and seeds as every start
// does (nothing is left to do). Without it (not built), the start creates the database itself.
export const DEMO_DATABASE_DIR = 'build/pglite-demo';
