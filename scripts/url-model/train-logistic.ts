/**
 * @module scripts/url-model/train-logistic
 * Logistic regression over hashed sparse features, trained with AdaGrad (Duchi, Hazan and Singer,
 * JMLR 12, 2011): a per-weight learning rate that shrinks with the gradients seen, which suits
 * n-gram features whose frequencies differ by orders of magnitude. L2 regularisation is applied
 * lazily to the weights an example touches. Deterministic: the example order comes from a seeded
 * PRNG, so the same data gives the same weights.
 */
import {
  createFeatureBuffer,
  HASH_BITS,
  hostFeatures,
  modelHost,
} from '../../src/engine/model/host-features.js';

/** One training example: a host, its public suffix, the label and the example weight. */
export interface Example {
  host: string;
  suffix: string;
  label: 0 | 1;
  weight: number;
}

export interface TrainOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
}

export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  epochs: 6,
  learningRate: 0.2,
  l2: 1e-6,
  seed: 12,
};

/** A trained float model: weights per bucket and the bias. */
export interface FloatModel {
  weights: Float32Array;
  bias: number;
}

/** Mulberry32, a small seeded PRNG (public domain, Tommy Ettinger). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Train on the examples.
 *
 * @param onEpoch called after each epoch with its number and the weighted mean log loss.
 */
export function trainLogistic(
  examples: readonly Example[],
  options: TrainOptions = DEFAULT_TRAIN_OPTIONS,
  onEpoch: (epoch: number, loss: number) => void = () => undefined,
): FloatModel {
  const size = 1 << HASH_BITS;
  const weights = new Float32Array(size);
  const gradSquares = new Float32Array(size).fill(1e-8);
  let bias = 0;
  let biasSquares = 1e-8;
  const buffer = createFeatureBuffer();
  const random = mulberry32(options.seed);
  const order = Array.from(examples.keys());

  for (let epoch = 1; epoch <= options.epochs; epoch++) {
    // Fisher–Yates with the seeded PRNG.
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    let loss = 0;
    let total = 0;
    for (const index of order) {
      const example = examples[index];
      if (example === undefined) continue;
      hostFeatures(modelHost(example.host), example.suffix, buffer);
      let logit = bias;
      for (let i = 0; i < buffer.count; i++) {
        logit += (weights[buffer.indices[i] ?? 0] ?? 0) * (buffer.values[i] ?? 0);
      }
      const p = 1 / (1 + Math.exp(-logit));
      const error = (p - example.label) * example.weight;
      loss -=
        example.weight *
        (example.label === 1 ? Math.log(Math.max(p, 1e-12)) : Math.log(Math.max(1 - p, 1e-12)));
      total += example.weight;
      for (let i = 0; i < buffer.count; i++) {
        const k = buffer.indices[i] ?? 0;
        const w = weights[k] ?? 0;
        const g = error * (buffer.values[i] ?? 0) + options.l2 * w;
        const squares = (gradSquares[k] ?? 0) + g * g;
        gradSquares[k] = squares;
        weights[k] = w - (options.learningRate * g) / Math.sqrt(squares);
      }
      biasSquares += error * error;
      bias -= (options.learningRate * error) / Math.sqrt(biasSquares);
    }
    onEpoch(epoch, total === 0 ? 0 : loss / total);
  }
  return { weights, bias };
}

/** The float model's logit for a host (training-side scoring, same features as the engine). */
export function floatLogit(model: FloatModel, host: string, suffix: string): number {
  const buffer = createFeatureBuffer();
  hostFeatures(modelHost(host), suffix, buffer);
  let logit = model.bias;
  for (let i = 0; i < buffer.count; i++) {
    logit += (model.weights[buffer.indices[i] ?? 0] ?? 0) * (buffer.values[i] ?? 0);
  }
  return logit;
}

/**
 * Quantise float weights to int16 with one scale (largest magnitude → 32767).
 *
 * @returns the int16 weights and the scale that maps them back.
 */
export function quantize(weights: Float32Array): { weights: Int16Array; scale: number } {
  let max = 0;
  for (const w of weights) max = Math.max(max, Math.abs(w));
  const scale = max === 0 ? 1 : max / 32767;
  const out = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) out[i] = Math.round((weights[i] ?? 0) / scale);
  return { weights: out, scale };
}

/**
 * The lowest logit threshold at which at most `rate` of the benign logits reach it.
 *
 * @param benignLogits logits of held-out benign examples.
 * @param rate target false-positive rate, e.g. 0.005.
 */
export function thresholdAtRate(benignLogits: readonly number[], rate: number): number {
  const sorted = [...benignLogits].sort((a, b) => b - a);
  const allowed = Math.floor(rate * sorted.length);
  // Threshold just above the (allowed+1)-th highest benign logit: at most `allowed` reach it.
  const next = sorted[allowed];
  return next === undefined ? -Infinity : next + 1e-6;
}
