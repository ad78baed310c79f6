import { describe, expect, it } from 'vitest';

import {
  createFeatureBuffer,
  HASH_BITS,
  hostFeatures,
  hostNgrams,
  modelHost,
} from './host-features.js';
import { sigmoid, URL_MODEL_FORMAT, UrlModel, type UrlModelParams } from './url-model.js';

const params = (bias: number, scale = 1): UrlModelParams => ({
  format: URL_MODEL_FORMAT,
  hash_bits: HASH_BITS,
  scale,
  bias,
  thresholds: { support: 1, caution: 3, strong: 5 },
});

describe('UrlModel', () => {
  it('refuses weights of another size and thresholds out of order', () => {
    expect(() => new UrlModel(new Int16Array(16), params(0))).toThrow(/weights/);
    const bad = { ...params(0), thresholds: { support: 4, caution: 3, strong: 5 } };
    expect(() => new UrlModel(new Int16Array(1 << HASH_BITS), bad)).toThrow(/thresholds/);
  });

  it('scores bias plus the scaled weights of the host features, and names the level', () => {
    const weights = new Int16Array(1 << HASH_BITS);
    const buffer = createFeatureBuffer();
    hostFeatures(modelHost('evil-login.top'), 'top', buffer);
    let expected = 0.5;
    for (let i = 0; i < buffer.count; i++) {
      const index = buffer.indices[i] ?? 0;
      weights[index] = 100;
    }
    // Recompute with duplicates of an index counted once in the weights, as scoring does.
    for (let i = 0; i < buffer.count; i++) expected += 100 * 0.01 * (buffer.values[i] ?? 0);
    const model = new UrlModel(weights, params(0.5, 0.01));
    const score = model.score('evil-login.top', 'top');
    expect(score.logit).toBeCloseTo(expected, 5);
    expect(score.level).toBe(expected >= 5 ? 'strong' : expected >= 3 ? 'caution' : 'none');
    expect(model.score('www.evil-login.top', 'top').logit).toBeCloseTo(score.logit, 9);
  });

  it('maps the thresholds to levels and support', () => {
    const zero = new Int16Array(1 << HASH_BITS);
    expect(new UrlModel(zero, params(0)).score('a.com', 'com')).toEqual({
      logit: 0,
      level: 'none',
      supports: false,
    });
    expect(new UrlModel(zero, params(2)).score('a.com', 'com')).toMatchObject({
      level: 'none',
      supports: true,
    });
    expect(new UrlModel(zero, params(3)).score('a.com', 'com')).toMatchObject({ level: 'caution' });
    expect(new UrlModel(zero, params(6)).score('a.com', 'com')).toMatchObject({ level: 'strong' });
  });

  it('explains a score by its strongest positive n-grams, and names nothing without one', () => {
    const weights = new Int16Array(1 << HASH_BITS);
    const model = new UrlModel(weights, params(0));
    expect(model.explain('quiet-garden.com', 'com')).toEqual([]);
    const grams = hostNgrams('quiet-garden.com', 'com');
    const weightOf = (text: string, weight: number): void => {
      const gram = grams.find((g) => g.text === text);
      if (gram !== undefined) weights[gram.index] = weight;
    };
    weightOf('^qui', 300);
    weightOf('rden', 200);
    weightOf('den$', -500);
    expect(model.explain('quiet-garden.com', 'com')).toEqual(['^qui', 'rden']);
  });

  it('sigmoid maps log-odds to probability', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(Math.log(9))).toBeCloseTo(0.9, 9);
  });
});
