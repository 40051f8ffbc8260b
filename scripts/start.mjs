// `npm start`: builds what is missing or stale (build-if-needed.mjs, which exits on a failed build), then
// runs the built server in this same process: one Node start instead of two (issue #35).
import './build-if-needed.mjs';

await import('../dist/server/main.js');
