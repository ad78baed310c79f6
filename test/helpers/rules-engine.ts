/**
 * The engine without the learned URL model, built once per test process. Analyzer and rule tests
 * use it so that what an invented host name "looks like" to the model's weights never decides
 * their outcome: risk then comes only from the rules (TLD, hosting, brand findings, domain age).
 * End-to-end tests through the service use the full engine (`defaultEngine()`).
 */
import { createEngine, type Engine } from '../../src/engine/create-engine.js';
import { loadEngineData } from '../../src/engine-data/load-engine-data.js';

let engine: Engine | undefined;

/** The shared rules-only engine. */
export function rulesEngine(): Engine {
  engine ??= createEngine(loadEngineData(undefined, { urlModel: false }));
  return engine;
}
