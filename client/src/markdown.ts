// Text from elsewhere (a log line, a backend's error message, a job's destination) placed in markdown as text, never as markdown.

/**
 * `text` as one markdown code span, whatever it holds: the fence is a run of backticks longer than any inside (CommonMark §6.1), with
 * a space inside each end when the text starts or ends with a backtick or a space; line breaks become spaces (a span inside a list
 * item or a table row stays on its line), and in a table cell each | is escaped (GFM tables split cells before reading spans). A log
 * record's values come from whoever sent the request: a backtick in a path must not end the span and turn the rest into markdown.
 */
export function codeSpan(text: string, inTable = false): string {
  let t = text.replace(/\r\n?|\n/g, ' ');
  if (inTable) t = t.replace(/\|/g, '\\|');
  const longest = (t.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0); // no spread: a line may hold 10^5 runs
  const fence = '`'.repeat(longest + 1);
  const pad = /^[` ]|[` ]$/.test(t) && t.trim() ? ' ' : '';
  return fence + pad + t + pad + fence;
}

/** `text` as plain markdown text: each ASCII punctuation character backslash-escaped (CommonMark §2.4: it then stands for itself,
 * so no link, emphasis, HTML or $(icon) comes from it), line breaks as spaces. */
export function mdText(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/** `text` as markdown text in a document read as source (the Test Filter and Test Rules reports open in an editor): only what would
 * start markdown is backslash-escaped — \ ` * [ < | ~ everywhere, & before an entity, _ not inside a word (CommonMark §6.2: an
 * intraword _ opens no emphasis), and a block marker at the start (# > - + or a number with . or )) — so that prose such as a JSON
 * error, quotes, parentheses and snake_case names reads as written. Line breaks become spaces. mdText is for markdown that is rendered. */
export function mdSourceText(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ')
    .replace(/[\\`*[<|~]|&(?=#?\w+;)|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g, '\\$&')
    .replace(/^(\s*)(?:([#>+-])|(\d+)([.)]))/, (_m, sp: string, mark?: string, digits?: string, close?: string) =>
      (mark ? `${sp}\\${mark}` : `${sp}${digits}\\${close}`));
}
