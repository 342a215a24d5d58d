// The jsonrpc-request kind: gateway JSON-RPC requests (a single request or a batch).
import type { KindPlugin } from '../../types';
import { requestRule } from './rules';
import { complete, hover, inlayHints, lenses, signatureHelp } from './features';

export const jsonrpcPlugin: KindPlugin = {
  kind: 'jsonrpc-request',
  rules: [requestRule],
  complete: (doc, offset) => complete(doc, offset),
  hover: (doc, offset) => hover(doc, offset),
  signatureHelp: (doc, offset) => signatureHelp(doc, offset),
  inlayHints: (doc, range) => inlayHints(doc, range),
  lenses: (doc) => lenses(doc),
};
