// The parse of a document, in four parts (parse/): the lazy document and its entry point parseDocument (document.ts), the
// incremental index of large documents (windowIndex.ts), scans over JSON text (scanner.ts) and syntax messages (syntaxErrors.ts).
// This module is what the rest of the core imports.
export { WINDOW_FROM, type ParseOptions, parseDocument, isTooDeep } from './parse/document';
export { MAX_NESTING, deeperThan, tooDeepAt, itemSpans, commonPrefix, commonSuffix, largestArrayMember } from './parse/scanner';
export { parentAnchor } from './parse/windowIndex';
export { nodeAt } from './parse/duplicates';
