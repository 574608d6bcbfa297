import { describe, expect, it } from 'vitest';
import { memoryBytes, milliCpu, parseQuantity, resourceQuantity } from './quantity';

// Cases after k8s.io/apimachinery/pkg/api/resource/quantity_test.go (TestQuantityParse): the
// grammar's three suffix kinds, signs, fractions and exponents.
describe('parseQuantity', () => {
  it.each([
    ['0', 0],
    ['128Mi', 134_217_728],
    ['1Gi', 1_073_741_824],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['500M', 500_000_000],
    ['1.5k', 1500],
    ['1e3', 1000],
    ['2E3', 2000],
    ['1e-3', 0.001],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['5.', 5],
    ['250m', 0.25],
    ['100n', 100e-9],
    ['7u', 7e-6],
    ['1E', 1e18],
    ['-1', -1],
    ['+2Ki', 2048],
    [' 3 ', 3],
    [12, 12],
  ])('%j is %d', (text, value) => expect(parseQuantity(text)).toBeCloseTo(value, 12));

  it.each([
    '',
    'lots',
    'banana',
    '12Zi',
    '1 Gi x',
    '1.2.3',
    'Mi',
    '1ki',
    '--1',
    '1e',
    NaN,
    null,
    {},
  ])('rejects %j', (text) => expect(parseQuantity(text)).toBeUndefined());
});

describe('container resources', () => {
  it('refuses negative values, as the API server does', () => {
    expect(resourceQuantity('-1')).toBeUndefined();
    expect(memoryBytes('-1Mi')).toBeUndefined();
    expect(milliCpu(-0.5)).toBeUndefined();
    expect(resourceQuantity('0')).toBe(0);
  });

  it('rounds memory up to bytes and CPU up to millicores', () => {
    expect(memoryBytes('1.5')).toBe(2);
    expect(milliCpu('0.1')).toBe(100);
    expect(milliCpu('1')).toBe(1000);
    expect(milliCpu('1m')).toBe(1);
  });
});
