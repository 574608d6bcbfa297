import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration';

describe('formatDuration', () => {
  it('reads naturally in English and Chinese', () => {
    expect(formatDuration(133_000, 'en')).toMatch(/^2 min,? 13 sec$/);
    expect(formatDuration(133_000, 'zh-CN')).toMatch(/^2分钟13秒$/);
    expect(formatDuration(3_600_000 + 5_000, 'en')).toMatch(/^1 hr,? 5 sec$/);
  });
  it('never goes negative and shows zero seconds', () => {
    expect(formatDuration(-5_000, 'en')).toMatch(/^0 sec$/);
  });
});
