'use client';
/**
 * Why a file was refused: a headline per kind, then each located issue (line/column/byte for
 * text that is not JSON, the path for a wrong value). Issue texts can quote the file: they are
 * rendered as inert text.
 */
import { useTranslations } from 'next-intl';
import { inertText, type FileErrorData, type FileIssue } from '@/lib/timeline/file';

const CODES = [
  'TOO_LARGE',
  'NOT_UTF8',
  'BAD_GZIP',
  'MALFORMED_JSON',
  'NOT_A_TIMELINE',
  'UNSUPPORTED_VERSION',
  'INVALID',
] as const;
type KnownCode = (typeof CODES)[number];
const isKnown = (code: string): code is KnownCode => (CODES as readonly string[]).includes(code);

export function FileErrors({
  name,
  error,
}: {
  name?: string;
  error: Pick<FileErrorData, 'code' | 'issues' | 'more'> & { message?: string };
}) {
  const t = useTranslations('incident.import');
  const location = (issue: FileIssue) =>
    issue.line !== undefined
      ? t('at', { line: issue.line, column: issue.column ?? 0, byte: issue.byte ?? 0 })
      : inertText(issue.path, { max: 200 });
  return (
    <div className="ps-inc-errors" role="alert" data-testid="import-errors" data-code={error.code}>
      <p className="ps-inc-errors-head">
        {name ? t('refusedFile', { name: inertText(name, { max: 120 }) }) : t('refused')}{' '}
        {isKnown(error.code) ? t(`codes.${error.code}`) : inertText(error.message ?? error.code)}
      </p>
      {error.issues.length > 0 ? (
        <ul>
          {error.issues.map((issue, i) => (
            <li key={i}>
              <code className="ps-inc-where">{location(issue)}</code>{' '}
              <span>{inertText(issue.message, { max: 400 })}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {error.more > 0 ? <p className="ps-muted">{t('more', { count: error.more })}</p> : null}
    </div>
  );
}
