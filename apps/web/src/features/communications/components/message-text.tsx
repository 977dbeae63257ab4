import { Fragment } from 'react';
import { MENTION_PATTERN } from '@outlay/contracts/communications';

/**
 * A person's text as text (React escapes it; nothing is read as HTML), keeping line breaks and
 * showing @mentions in bold.
 */
export function MessageText({
  text,
  className,
  mentionClassName = 'font-semibold text-primary',
}: {
  text: string;
  className?: string;
  mentionClassName?: string;
}) {
  const parts: { text: string; mention: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(new RegExp(MENTION_PATTERN.source, MENTION_PATTERN.flags))) {
    const start = match.index + match[1]!.length;
    if (start > last) parts.push({ text: text.slice(last, start), mention: false });
    parts.push({ text: `@${match[2]}`, mention: true });
    last = start + match[2]!.length + 1;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mention: false });
  return (
    <p className={className ?? 'whitespace-pre-wrap break-words'}>
      {parts.map((p, i) =>
        p.mention ? (
          <strong key={i} className={mentionClassName}>
            {p.text}
          </strong>
        ) : (
          <Fragment key={i}>{p.text}</Fragment>
        ),
      )}
    </p>
  );
}
