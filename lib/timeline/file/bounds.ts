/**
 * Generic limits on the parsed document, checked before the schema so that nothing unbounded
 * (deep nesting, giant arrays, long strings, prototype-named keys) ever reaches zod, the reducer
 * or the screen. The schema then applies tighter, field-specific limits.
 */
import type { IssueList } from './errors';
import type { FileLimits } from './limits';

/** Keys that would reach Object.prototype when assigned (`obj[key] = …`) by any consumer. */
const FORBIDDEN_KEYS = new Set(['__proto__']);

/** Size problems go to `issues`; keys that are never allowed go to `forbidden`. */
export function checkBounds(
  doc: unknown,
  limits: FileLimits,
  issues: IssueList,
  forbidden: IssueList,
): void {
  const path: (string | number)[] = [];
  const walk = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (value.length > limits.maxStringChars)
        issues.add(
          path,
          `string of ${value.length} characters; the limit is ${limits.maxStringChars}`,
        );
      return;
    }
    if (value === null || typeof value !== 'object') return;
    if (depth > limits.maxDepth) {
      issues.add(path, `nested deeper than ${limits.maxDepth} levels`);
      return;
    }
    if (Array.isArray(value)) {
      const isEvents = path.length === 1 && path[0] === 'events';
      const max = isEvents ? limits.maxEvents : limits.maxArrayLength;
      if (value.length > max) {
        issues.add(path, `${value.length} ${isEvents ? 'events' : 'items'}; the limit is ${max}`);
        return;
      }
      for (let i = 0; i < value.length; i++) {
        path.push(i);
        walk(value[i], depth + 1);
        path.pop();
      }
      return;
    }
    const keys = Object.keys(value);
    if (keys.length > limits.maxObjectKeys) {
      issues.add(path, `${keys.length} keys; the limit is ${limits.maxObjectKeys}`);
      return;
    }
    const record = value as Record<string, unknown>;
    for (const key of keys) {
      if (key.length > limits.maxKeyChars) {
        issues.add(path, `a key of ${key.length} characters; the limit is ${limits.maxKeyChars}`);
        continue;
      }
      if (FORBIDDEN_KEYS.has(key)) {
        path.push(key);
        forbidden.add(path, 'this key is not allowed');
        path.pop();
        continue;
      }
      path.push(key);
      walk(record[key], depth + 1);
      path.pop();
    }
  };
  walk(doc, 1);
}
