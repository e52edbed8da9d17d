import { fileURLToPath } from 'node:url';
import { restatedSuite } from '../restated.js';
import { V3_LEASE } from './index.js';

restatedSuite(fileURLToPath(new URL('.', import.meta.url)), V3_LEASE);
