// `npm run bench`: every benchmark, one line each; the lessor storm's storm/floor ratio comes last.
import { clusterKeepAlive } from './cluster-keepalive.js';
import { lessorStorm } from './lessor-storm.js';

clusterKeepAlive();
lessorStorm();
