// checkParamValues per method: a valid call, and invalid ones with the expected (path, code) of each issue.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockNumberOf, checkParamValues, rangeNotes, formatPath, LIMITS, SUPPORTED_METHODS, UNSUPPORTED_METHODS, type ParamIssue } from '../../../server/src/core/rules/jsonrpc/params';

const A = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
const H = '0x88df016429689c079f3b2f6ad39fa052532c56795b733da78a91ebe6a713944b';

type Case = { ok: unknown[][]; bad: [unknown, [(string | number)[], string][]][] };

const CASES: Record<string, Case> = {
  web3_clientVersion: { ok: [[]], bad: [[[1], [[[0], 'jsonrpc/extra-param']]]] },
  web3_sha3: { ok: [['0x68656c6c6f'], ['0x']], bad: [[['0x123'], [[[0], 'jsonrpc/invalid-data']]], [[], [[[], 'jsonrpc/missing-param']]]] },
  net_version: { ok: [[]], bad: [[['x'], [[[0], 'jsonrpc/extra-param']]]] },
  net_listening: { ok: [[]], bad: [[{}, [[[], 'jsonrpc/params-not-array']]]] },
  eth_syncing: { ok: [[]], bad: [[[0], [[[0], 'jsonrpc/extra-param']]]] },
  eth_mining: { ok: [[]], bad: [[[true], [[[0], 'jsonrpc/extra-param']]]] },
  eth_gasPrice: { ok: [[]], bad: [[[1, 2], [[[0], 'jsonrpc/extra-param']]]] },
  eth_feeHistory: {
    ok: [['0x4', 'latest', [25, 75]], [10, '0x10', []], ['0xa', 'pending', [0, 0.5, 100]]],
    bad: [
      // Strictly increasing: geth refuses equal neighbours since #28954 (eth/gasprice/feehistory.go, `p <= rewardPercentiles[i-1]`).
      [['0xa', 'pending', [0, 0, 100]], [[[2, 1], 'jsonrpc/invalid-param']]],
      [['0x4', 'latest', [10, 50, 50]], [[[2, 2], 'jsonrpc/invalid-param']]],
      [['0xb', 'latest', []], [[[0], 'jsonrpc/block-count-too-large']]],
      [['0x4', 'lastest', [75, 25]], [[[1], 'jsonrpc/invalid-block'], [[2, 1], 'jsonrpc/invalid-param']]],
      [['0x4', 'latest'], [[[], 'jsonrpc/missing-param']]],
      [['0x4', 'latest', [101]], [[[2, 0], 'jsonrpc/invalid-param']]],
      // Not an array: one issue on the member, not one per character (a mutation sample found no case of it).
      [['0x4', 'latest', 'x'], [[[2], 'jsonrpc/invalid-param']]],
    ],
  },
  eth_blockNumber: { ok: [[]], bad: [[['latest'], [[[0], 'jsonrpc/extra-param']]]] },
  eth_chainId: { ok: [[]], bad: [[[{}], [[[0], 'jsonrpc/extra-param']]]] },
  eth_getBalance: {
    ok: [[A], [A, 'latest'], [A, '0x1b4'], [A, H], [A, null], [A.toUpperCase().replace('0X', '0x')]],
    bad: [
      [['0x12', '0x0010'], [[[0], 'jsonrpc/invalid-address'], [[1], 'jsonrpc/invalid-quantity']]],
      [[A, 'latest', 1], [[[2], 'jsonrpc/extra-param']]],
      [[], [[[], 'jsonrpc/missing-param']]],
    ],
  },
  eth_getStorageAt: {
    ok: [[A, '0x0'], [A, '0x' + 'f'.repeat(64), 'safe']],
    bad: [[[A, '0x' + '0'.repeat(66), 'Latest'], [[[1], 'jsonrpc/invalid-data'], [[2], 'jsonrpc/invalid-block']]], [[A], [[[], 'jsonrpc/missing-param']]]],
  },
  eth_getTransactionCount: {
    ok: [[A, 'pending']],
    bad: [[['0X' + A.slice(2), 'newest'], [[[0], 'jsonrpc/invalid-address'], [[1], 'jsonrpc/invalid-block']]]],
  },
  eth_getBlockTransactionCountByHash: { ok: [[H]], bad: [[[H.slice(0, -2)], [[[0], 'jsonrpc/invalid-hash']]], [['latest'], [[[0], 'jsonrpc/invalid-hash']]]] },
  eth_getBlockTransactionCountByNumber: { ok: [['0x10d4f'], ['finalized']], bad: [[['69967'], [[[0], 'jsonrpc/invalid-quantity']]], [[H], [[[0], 'jsonrpc/invalid-block']]]] },
  eth_getUncleCountByBlockHash: { ok: [[H]], bad: [[[], [[[], 'jsonrpc/missing-param']]]] },
  eth_getUncleCountByBlockNumber: { ok: [['earliest']], bad: [[[true], [[[0], 'jsonrpc/invalid-block']]]] },
  eth_getCode: { ok: [[A, 'safe']], bad: [[[A.slice(2)], [[[0], 'jsonrpc/invalid-address']]]] },
  eth_sendRawTransaction: { ok: [['0xf86c808504a817c800825208']], bad: [[['0xf86'], [[[0], 'jsonrpc/invalid-data']]], [[42], [[[0], 'jsonrpc/invalid-data']]]] },
  eth_call: {
    ok: [[{ to: A, input: '0x70a08231' }, 'latest'], [{ from: A, to: null, data: '0x', value: '0x0', accessList: [{ address: A, storageKeys: [H] }] }, H],
      // execution-apis GenericTransaction.type and an authorization's yParity are a "byte" (^0x([0-9a-fA-F]?){1,2}$), not a uint.
      [{ to: A, type: '0x02', data: '0x' }], [{ to: A, type: '0x2', authorizationList: [{ chainId: '0x1', nonce: '0x0', address: A, yParity: '0x01', r: '0x1', s: '0x2' }] }]],
    bad: [
      [[{ to: A, type: '0x002' }], [[[0, 'type'], 'jsonrpc/invalid-param']]],
      [[{ to: A, type: 2, authorizationList: [{ chainId: '0x1', nonce: '0x0', address: A, yParity: '0x100', r: '0x1', s: '0x2' }] }],
        [[[0, 'type'], 'jsonrpc/invalid-param'], [[0, 'authorizationList', 0, 'yParity'], 'jsonrpc/invalid-param']]],
      [[{ to: A, from: '0x1', gas: '0x05208', dataa: '0x' }], [[[0, 'from'], 'jsonrpc/invalid-address'], [[0, 'gas'], 'jsonrpc/invalid-quantity'], [[0, 'dataa'], 'jsonrpc/unknown-key']]],
      [['0x01'], [[[0], 'jsonrpc/invalid-param']]],
      [[{ accessList: [{ address: A }] }], [[[0, 'accessList', 0], 'jsonrpc/missing-param']]],
    ],
  },
  eth_estimateGas: {
    ok: [[{ from: A, to: null }], [{ to: A }, 'pending']],
    bad: [[[{ to: A, data: '0x01', input: '0x02' }, H], [[[0, 'data'], 'jsonrpc/conflicting-keys'], [[1], 'jsonrpc/invalid-block']]]],
  },
  eth_getBlockByHash: { ok: [[H, false]], bad: [[[H, 'false'], [[[1], 'jsonrpc/invalid-param']]]] },
  eth_getBlockByNumber: { ok: [['0x1b4', true], ['latest', false]], bad: [[['0x1b4'], [[[], 'jsonrpc/missing-param']]]] },
  eth_getTransactionByHash: { ok: [[H]], bad: [[[A], [[[0], 'jsonrpc/invalid-hash']]]] },
  eth_getTransactionByBlockHashAndIndex: { ok: [[H, '0x0']], bad: [[[H, 0], [[[1], 'jsonrpc/invalid-quantity']]]] },
  eth_getTransactionByBlockNumberAndIndex: { ok: [['latest', '0x1']], bad: [[['latest', '0x'], [[[1], 'jsonrpc/invalid-quantity']]]] },
  eth_getTransactionReceipt: { ok: [[H]], bad: [[[null], [[[0], 'jsonrpc/invalid-hash']]]] },
  eth_getUncleByBlockHashAndIndex: { ok: [[H, '0x0']], bad: [[[H, '0x00'], [[[1], 'jsonrpc/invalid-quantity']]]] },
  eth_getUncleByBlockNumberAndIndex: { ok: [['0x29c', '0x0']], bad: [[['earliest', -1], [[[1], 'jsonrpc/invalid-quantity']]]] },
  eth_getLogs: {
    ok: [[{ blockHash: H, address: [A], topics: [null, [H, H]] }], [{ fromBlock: '0x1000', toBlock: '0x131f' }], [{}], [{ fromBlock: 'safe', address: null }],
      [{ topics: [H, H, H, H] }], [{ topics: [[H, null], null, [null]] }]],
    bad: [
      [[{ blockHash: H, fromBlock: '0x1', address: '0x1', topics: ['0xdd'] }],
        [[[0, 'address'], 'jsonrpc/invalid-address'], [[0, 'topics', 0], 'jsonrpc/invalid-hash'], [[0, 'blockHash'], 'jsonrpc/conflicting-keys']]],
      [[{ fromBlock: '0x1000', toBlock: '0x1321' }], [[[0, 'toBlock'], 'jsonrpc/block-range-too-large']]],
      [[{ fromBlock: '0x2000', toBlock: '0x1000' }], [[[0, 'fromBlock'], 'jsonrpc/block-range-reversed']]],
      [[{ fromBlock: 'pending' }], [[[0, 'fromBlock'], 'jsonrpc/invalid-block']]],
      [[{ topics: [null, null, null, null, null] }], [[[0, 'topics', 4], 'jsonrpc/invalid-param']]],
      [[{ topics: 'x' }], [[[0, 'topics'], 'jsonrpc/invalid-param']]],
      [[null], [[[0], 'jsonrpc/invalid-param']]],
      // 801 blocks exactly; and the same with only toBlock past 2^53, where doubles would count 800 (2^53 - 3 to 2^53 + 797).
      [[{ fromBlock: '0x1000', toBlock: '0x1320' }], [[[0, 'toBlock'], 'jsonrpc/block-range-too-large']]],
      [[{ fromBlock: '0x1ffffffffffffd', toBlock: '0x2000000000031d' }], [[[0, 'toBlock'], 'jsonrpc/block-range-too-large']]],
      [[{ topics: [['0x12', null]] }], [[[0, 'topics', 0, 0], 'jsonrpc/invalid-hash']]],
    ],
  },
  eth_getWork: { ok: [[]], bad: [[[null], [[[0], 'jsonrpc/extra-param']]]] },
  eth_getProof: { ok: [[A, ['0x0', H], 'latest'], [A, []]], bad: [[[A, '0x0'], [[[1], 'jsonrpc/invalid-param']]]] },
  trace_filter: {
    ok: [[{ fromBlock: '0x1', toBlock: '0x10', fromAddress: [A], toAddress: [A], mode: 'intersection', after: 0, count: 200 }], [{}], [{ count: '0xc8' }]],
    bad: [
      [[{ fromAddress: [A, '0x12'], toAddress: A, mode: 'all', after: -1, limit: 5 }],
        [[[0, 'fromAddress', 1], 'jsonrpc/invalid-address'], [[0, 'toAddress'], 'jsonrpc/invalid-param'], [[0, 'mode'], 'jsonrpc/invalid-param'],
          [[0, 'after'], 'jsonrpc/invalid-param'], [[0, 'limit'], 'jsonrpc/unknown-key']]],
      [[{ fromBlock: '0xccb943', toBlock: '0xccbc64' }], [[[0, 'toBlock'], 'jsonrpc/block-range-too-large']]],
      [[{ count: 201 }], [[[0, 'count'], 'jsonrpc/trace-count-too-large']]],
      [[{ count: '0xc9' }], [[[0, 'count'], 'jsonrpc/trace-count-too-large']]],
      [[{ blockHash: H, toBlock: '0x1' }], [[[0, 'blockHash'], 'jsonrpc/conflicting-keys']]],
    ],
  },
};

const summary = (issues: ParamIssue[]) => issues.map((i) => [i.path, i.code ?? 'jsonrpc/invalid-param']);

test('every supported method has param cases', () => {
  assert.deepEqual(Object.keys(CASES).sort(), [...SUPPORTED_METHODS].sort());
});

for (const [method, c] of Object.entries(CASES)) {
  test(`checkParamValues ${method}`, () => {
    for (const params of c.ok) assert.deepEqual(checkParamValues(method, params), [], `${method} ${JSON.stringify(params)}`);
    for (const [params, expected] of c.bad) {
      const issues = checkParamValues(method, params);
      assert.deepEqual(summary(issues), expected, `${method} ${JSON.stringify(params)}`);
      for (const i of issues) assert.match(i.message, /\.$|\?$/, 'messages are one sentence');
    }
  });
}

test('methods without params accept missing params; methods with required params do not', () => {
  assert.deepEqual(checkParamValues('eth_blockNumber', undefined), []);
  assert.deepEqual(summary(checkParamValues('eth_getBalance', undefined)), [[[], 'jsonrpc/missing-param']]);
});

test('unsupported and unknown methods have no param issues (the method rule reports them)', () => {
  assert.deepEqual(checkParamValues('eth_accounts', [1, 2, 3]), []);
  assert.deepEqual(checkParamValues('nope', 5), []);
});

test('messages name the param path and quote the value', () => {
  const [issue] = checkParamValues('trace_filter', [{ fromAddress: [A, '0x12'] }]);
  assert.equal(issue.message, 'params[0].fromAddress[1] must be a 20-byte address (0x + 40 hex digits), not "0x12".');
});

test('replacements normalise quantities, prefixes, tags, booleans and numbers', () => {
  const rep = (method: string, params: unknown[]) => checkParamValues(method, params).map((i) => i.replacement);
  assert.deepEqual(rep('eth_getBalance', [A, '0x0010']), ['0x10']);
  assert.deepEqual(rep('eth_getBalance', [A, '0X1F']), ['0x1f']);
  assert.deepEqual(rep('eth_getBalance', [A, 'Latest']), ['latest']);
  assert.deepEqual(rep('eth_getBalance', [A, 'lates']), ['latest']);
  assert.deepEqual(rep('eth_getBalance', [A.slice(2)]), [A]);
  assert.deepEqual(rep('eth_getBalance', ['0X' + A.slice(2).toUpperCase()]), [A]);
  assert.deepEqual(rep('eth_getBlockByNumber', [100, 'true']), ['0x64', true]);
  assert.deepEqual(rep('eth_getBlockByNumber', ['100', false]), ['0x64']);
  assert.deepEqual(rep('trace_filter', [{ toAddress: A }]), [[A]]);
  assert.deepEqual(rep('trace_filter', [{ countt: 1 }]), ['count']);
  assert.deepEqual(rep('eth_getBalance', ['0x12']), [undefined]);
});

test('a value over 64 bits is no block number, leading zeros or not: no "without leading zeros" fix to a still larger number', () => {
  // A block hash pasted where only a number or tag goes; one hash in 16 starts with a zero digit.
  for (const hash of [H, '0x0' + H.slice(3), '0x00000000000000000' + 'f'.repeat(17)]) {
    const issues = checkParamValues('eth_getBlockByNumber', [hash, false]);
    assert.deepEqual(issues.map((i) => [i.path, i.code, i.replacement]), [[[0], 'jsonrpc/invalid-block', undefined]], hash);
    assert.match(issues[0].message, /more than 64 bits/);
  }
  // Leading zeros on a number that fits still get their fix.
  assert.deepEqual(checkParamValues('eth_getBlockByNumber', ['0x00000000000000000001', false]).map((i) => i.replacement), ['0x1']);
  // The same for a 256-bit QUANTITY (a call's value).
  const big = checkParamValues('eth_call', [{ value: '0x0' + 'f'.repeat(65) }]);
  assert.deepEqual(big.map((i) => [i.code, i.replacement]), [['jsonrpc/invalid-quantity', undefined]]);
  assert.match(big[0].message, /larger than 256 bits/);
});

test('limits: exactly at the limit passes, one over fails', () => {
  const code = (method: string, params: unknown[]) => checkParamValues(method, params).map((i) => i.code);
  const hex = (n: number) => '0x' + n.toString(16);
  // "Max block range of 800 blocks": a range of 800 blocks, both bounds included (1000..1799); 1000..1800 is 801 blocks.
  assert.deepEqual(code('eth_getLogs', [{ fromBlock: hex(1000), toBlock: hex(999 + LIMITS.getLogsMaxBlockRange) }]), []);
  assert.deepEqual(code('eth_getLogs', [{ fromBlock: hex(1000), toBlock: hex(1000 + LIMITS.getLogsMaxBlockRange) }]), ['jsonrpc/block-range-too-large']);
  assert.deepEqual(code('eth_getLogs', [{ fromBlock: hex(1000), toBlock: hex(1000) }]), []);
  assert.deepEqual(code('trace_filter', [{ fromBlock: hex(1), toBlock: hex(LIMITS.traceFilterMaxBlockRange) }]), []);
  assert.deepEqual(code('trace_filter', [{ fromBlock: hex(1), toBlock: hex(1 + LIMITS.traceFilterMaxBlockRange) }]), ['jsonrpc/block-range-too-large']);
  // Cloudflare's trace_filter example, 0xccb943..0xccbc62, is exactly 800 blocks (with "count": 200, also the maximum).
  assert.deepEqual(code('trace_filter', [{ count: 200, fromBlock: '0xccb943', toBlock: '0xccbc62' }]), []);
  assert.deepEqual(code('trace_filter', [{ count: 200, fromBlock: '0xccb943', toBlock: '0xccbc63' }]), ['jsonrpc/block-range-too-large']);
  assert.match(checkParamValues('eth_getLogs', [{ fromBlock: '0x0', toBlock: '0x320' }])[0].message, /801 blocks/);
  assert.deepEqual(code('trace_filter', [{ count: LIMITS.traceFilterMaxCount }]), []);
  assert.deepEqual(code('trace_filter', [{ count: LIMITS.traceFilterMaxCount + 1 }]), ['jsonrpc/trace-count-too-large']);
  assert.deepEqual(code('eth_feeHistory', [hex(LIMITS.feeHistoryMaxBlockCount), 'latest', []]), []);
  assert.deepEqual(code('eth_feeHistory', [LIMITS.feeHistoryMaxBlockCount + 1, 'latest', []]), ['jsonrpc/block-count-too-large']);
});

test('rangeNotes: ranges with tags or defaults get a run-time note, numeric or single-tag ranges do not', () => {
  const n = (method: string, f: object) => rangeNotes(method, [f]).map((i) => i.path);
  assert.deepEqual(n('eth_getLogs', { fromBlock: '0x1', toBlock: 'latest' }), [[0, 'toBlock']]);
  // "earliest" is block 0 (the mock resolves it so): earliest..0x5 is a measured range, not one left to run time.
  assert.deepEqual(n('eth_getLogs', { fromBlock: 'earliest', toBlock: '0x5' }), []);
  assert.deepEqual(n('eth_getLogs', { fromBlock: 'earliest', toBlock: 'latest' }), [[0, 'toBlock']]);
  assert.deepEqual(n('eth_getLogs', { fromBlock: '0x1' }), [[0]]);
  assert.deepEqual(n('eth_getLogs', {}), []);
  assert.deepEqual(n('eth_getLogs', { fromBlock: 'latest', toBlock: 'latest' }), []);
  assert.deepEqual(n('eth_getLogs', { fromBlock: 'pending', toBlock: 'latest' }), []);
  assert.deepEqual(n('eth_getLogs', { blockHash: H }), []);
  assert.deepEqual(n('eth_getLogs', { fromBlock: '0x1', toBlock: '0x2' }), []);
  assert.deepEqual(n('trace_filter', {}), [[0]]);
  assert.deepEqual(n('eth_call', {}), []);
  assert.equal(rangeNotes('trace_filter', [{}])[0].code, 'jsonrpc/range-from-genesis');
});

test('lists and helpers', () => {
  assert.equal(SUPPORTED_METHODS.length, 33);
  assert.equal(UNSUPPORTED_METHODS.length, 19);
  assert.ok(!SUPPORTED_METHODS.some((m) => UNSUPPORTED_METHODS.includes(m)));
  assert.equal(formatPath([0, 'fromAddress', 1]), 'params[0].fromAddress[1]');
  assert.equal(formatPath([0, 'a-b']), 'params[0]["a-b"]');
});

test('blockNumberOf converts hex quantities exactly up to 52 bits, longer ones as parseInt does, and refuses anything else', () => {
  assert.equal(blockNumberOf('0x1a'), 26);
  assert.equal(blockNumberOf('0X1A'), 26);
  assert.equal(blockNumberOf('0x' + 'f'.repeat(13)), 2 ** 52 - 1);
  assert.equal(blockNumberOf('0x' + 'f'.repeat(16)), Number.parseInt('f'.repeat(16), 16));
  assert.equal(blockNumberOf('0x0'), 0);
  assert.equal(blockNumberOf('12'), 12);
  assert.equal(blockNumberOf(7), 7);
  for (const bad of ['0x', '0x1g', '0x1 ', ' 0x1', '0xé', 'latest', -1, 1.5, null, [], '1e3']) assert.equal(blockNumberOf(bad), undefined, JSON.stringify(bad));
});

test('a transaction type is a byte: "0x" and 1 or 2 hex digits; a number or a padded string gets the hex fix', () => {
  const to = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
  const issues = (type: unknown) => checkParamValues('eth_call', [{ to, type }, 'latest']).map((i) => [formatPath(i.path), i.code ?? 'jsonrpc/invalid-param', i.replacement]);
  for (const ok of ['0x2', '0x02', '0xff', '0x0']) assert.deepEqual(issues(ok), [], ok);
  for (const [bad, fix] of [['0x', undefined], ['0x123', undefined], ['1x2', undefined], ['0xg', undefined], ['0x0g', undefined],
    [16, '0x10'], [255, '0xff'], [256, undefined], ['0X0a', '0xa'], ['0x0002', '0x2'], ['0X10', '0x10'], ['0x010', '0x10']] as const) {
    assert.deepEqual(issues(bad), [[formatPath([0, 'type']), 'jsonrpc/invalid-param', fix]], String(bad));
  }
});

test('a QUANTITY has at most its digits, no leading zero and hex digits only, the first one included', () => {
  const to = '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
  const value = (q: string) => checkParamValues('eth_call', [{ to, value: q }, 'latest']).map((i) => i.code);
  assert.deepEqual(value('0x' + 'f'.repeat(64)), [], '64 digits');
  assert.deepEqual(value('0x1' + '0'.repeat(64)), ['jsonrpc/invalid-quantity'], '65 digits');
  for (const bad of ['0xg1', '0x1g', '0x01', '0x', '0xG']) assert.deepEqual(value(bad), ['jsonrpc/invalid-quantity'], bad);
});

test('range defaults: eth_getLogs reads "latest" for a missing fromBlock (no note with toBlock "latest"); trace_filter reads 0', () => {
  assert.deepEqual(rangeNotes('eth_getLogs', [{}]), []);
  assert.deepEqual(rangeNotes('eth_getLogs', [{ toBlock: 'latest' }]), []);
  assert.match(rangeNotes('eth_getLogs', [{ toBlock: '0x10' }])[0].message, /^The block range fromBlock \(default "latest"\) to toBlock "0x10" depends on the chain head/);
  assert.deepEqual(rangeNotes('trace_filter', [{}]).map((i) => i.code), ['jsonrpc/range-from-genesis']);
  assert.deepEqual(rangeNotes('trace_filter', [{ toBlock: '0x10' }]), []);
});

test('trace_filter without fromBlock starts at block 0 (as rangeNotes and the mock read it): a numeric toBlock past 799 is over the limit', () => {
  const issues = (f: object) => checkParamValues('trace_filter', [f]).map((i) => [formatPath(i.path), i.code]);
  assert.deepEqual(issues({ toBlock: '0x31f' }), []);
  assert.deepEqual(issues({ toBlock: '0x320' }), [['params[0].toBlock', 'jsonrpc/block-range-too-large']]);
  assert.deepEqual(issues({ fromBlock: null, toBlock: '0x1000' }), [['params[0].toBlock', 'jsonrpc/block-range-too-large']]);
  assert.match(checkParamValues('trace_filter', [{ toBlock: '0x1000' }])[0].message, /covers blocks 0 \(fromBlock's default\) to 4096, 4097 blocks/);
  // eth_getLogs reads a missing fromBlock as "latest": not measurable here (rangeNotes says so).
  assert.deepEqual(checkParamValues('eth_getLogs', [{ toBlock: '0x1000' }]), []);
});

test('"earliest" is block 0 (the genesis block, as the mock resolves it): a range from or to it is measured, not left to run time', () => {
  const issues = (m: string, f: object) => [...checkParamValues(m, [f]), ...rangeNotes(m, [f])].map((i) => [formatPath(i.path), i.code]);
  assert.deepEqual(issues('eth_getLogs', { fromBlock: 'earliest', toBlock: '0x31f' }), []);
  assert.deepEqual(issues('eth_getLogs', { fromBlock: 'earliest', toBlock: '0x320' }), [['params[0].toBlock', 'jsonrpc/block-range-too-large']]);
  assert.deepEqual(issues('trace_filter', { fromBlock: 'earliest', toBlock: '0x1000' }), [['params[0].toBlock', 'jsonrpc/block-range-too-large']]);
  assert.deepEqual(issues('eth_getLogs', { fromBlock: '0x10', toBlock: 'earliest' }), [['params[0].fromBlock', 'jsonrpc/block-range-reversed']]);
  assert.deepEqual(issues('eth_getLogs', { fromBlock: 'earliest', toBlock: 'earliest' }), []);
  assert.match(checkParamValues('eth_getLogs', [{ fromBlock: 'earliest', toBlock: '0x320' }])[0].message, /covers blocks 0 \("earliest"\) to 800, 801 blocks/);
  assert.match(checkParamValues('eth_getLogs', [{ fromBlock: '0x10', toBlock: 'earliest' }])[0].message, /\(16\) is after toBlock \(0, "earliest"\)/);
});

test('a range from the genesis block (block 0, "earliest" or trace_filter\'s default) to a head tag covers the whole chain: a warning, not a note', () => {
  const codes = (m: string, f: object) => rangeNotes(m, [f]).map((i) => [formatPath(i.path), i.code]);
  assert.deepEqual(codes('trace_filter', {}), [['params[0]', 'jsonrpc/range-from-genesis']]);
  assert.deepEqual(codes('trace_filter', { toAddress: [A] }), [['params[0]', 'jsonrpc/range-from-genesis']]);
  assert.deepEqual(codes('trace_filter', { fromBlock: '0x0', toBlock: 'latest' }), [['params[0].toBlock', 'jsonrpc/range-from-genesis']]);
  assert.deepEqual(codes('eth_getLogs', { fromBlock: 'earliest' }), [['params[0]', 'jsonrpc/range-from-genesis']]);
  assert.deepEqual(codes('eth_getLogs', { fromBlock: 'earliest', toBlock: 'finalized' }), [['params[0].toBlock', 'jsonrpc/range-from-genesis']]);
  assert.match(rangeNotes('trace_filter', [{}])[0].message, /^The block range fromBlock \(default 0\) to toBlock \(default "latest"\) starts at the genesis block and covers the whole chain, over the gateway's 800-block limit on any chain past block 799; start it near the head\.$/);
  // A range from another fixed block to a head tag still depends on the head.
  assert.deepEqual(codes('trace_filter', { fromBlock: '0x1' }), [['params[0]', 'jsonrpc/range-checked-at-runtime']]);
});

test('eth_sendRawTransaction takes a signed transaction: not empty, and a typed envelope (0x01-0x04 then an RLP list) or a legacy RLP list', () => {
  const issues = (raw: string) => checkParamValues('eth_sendRawTransaction', [raw]).map((i) => [formatPath(i.path), i.code]);
  for (const ok of ['0xf86c808504a817c800825208', '0x02f8730181', '0x01f8', '0x04f9']) assert.deepEqual(issues(ok), [], ok);
  assert.deepEqual(issues('0x'), [['params[0]', 'jsonrpc/invalid-data']]);
  assert.match(checkParamValues('eth_sendRawTransaction', ['0x'])[0].message, /empty/);
  // A transaction hash pasted in its place: 32 bytes that are no RLP list.
  assert.deepEqual(issues(H), [['params[0]', 'jsonrpc/invalid-data']]);
  assert.match(checkParamValues('eth_sendRawTransaction', [H])[0].message, /starts with 0x88, neither a transaction type \(0x01 to 0x04\) nor an RLP list \(0xc0 to 0xff\); a transaction hash has 32 bytes: this method takes the signed transaction itself/);
  assert.deepEqual(issues('0x05f8'), [['params[0]', 'jsonrpc/invalid-data']]);
  assert.deepEqual(issues('0x02'), [['params[0]', 'jsonrpc/invalid-data']]);
  assert.deepEqual(issues('0x0280'), [['params[0]', 'jsonrpc/invalid-data']]);
});
