/**
 * The JSON Schema (draft 2020-12) of scenario files, built from the same tables the parser reads, so
 * the two cannot drift. schema/scenario.schema.json is this output; a test keeps them equal.
 */
import type { JsonSchema } from './codec.js';
import { objectSchema } from './fields.js';
import { TOP_LEVEL_FIELDS } from './scenario-fields.js';
import { stepSchemaDefs } from './steps.js';

export function buildSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'lessor-sim scenario',
    ...objectSchema(
      TOP_LEVEL_FIELDS,
      'A simulated etcd cluster, timed steps that drive it, and assertions on what it observes. ' +
        'Durations are strings with a unit (250ms, 4.5s, 1m30s); TTLs are whole seconds. ' +
        'The parser checks more than this schema can say: members exist, ' +
        'lease labels are granted before use, steps are in time order.',
    ),
    $defs: stepSchemaDefs(),
  };
}
