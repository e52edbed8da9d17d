// `npm run bench`: every benchmark, one line each; the lessor storm's storm/floor ratio comes last.
import { lessorStorm } from './lessor-storm.js';

const results = [...lessorStorm()];
void results;
