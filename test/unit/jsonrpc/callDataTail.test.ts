// The dynamic arguments of call data (server/src/core/rules/jsonrpc/selectors.ts): their offsets and lengths followed as the ABI
// spec defines them, held to ethers' encoder with random arguments, and every way an offset or a length can be wrong.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { AbiCoder, Interface } from 'ethers';
import {
  callDataFault, callMarkdown, decodeArgs, decodeCall, KNOWN_FUNCTIONS, parseAbiType, plainValue, type AbiNode,
} from '../../../server/src/core/rules/jsonrpc/selectors';

const coder = AbiCoder.defaultAbiCoder();
const hexOf = (b: Uint8Array) => `0x${Buffer.from(b).toString('hex')}`;

/** Random values of an ABI type, as ethers takes them and as plainValue gives them back (addresses and bytes in lower case). */
function arb(t: AbiNode): fc.Arbitrary<unknown> {
  switch (t.kind) {
    case 'address': return fc.uint8Array({ minLength: 20, maxLength: 20 }).map(hexOf);
    case 'bool': return fc.boolean();
    case 'uint': return fc.bigInt(0n, (1n << BigInt(t.bits)) - 1n);
    case 'int': return fc.bigInt(-(1n << BigInt(t.bits - 1)), (1n << BigInt(t.bits - 1)) - 1n);
    case 'fixedBytes': return fc.uint8Array({ minLength: t.size, maxLength: t.size }).map(hexOf);
    case 'bytes': return fc.uint8Array({ maxLength: 80 }).map(hexOf);
    case 'string': return fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !/[\uD800-\uDFFF]/u.test(s)); // no lone surrogate (the u flag reads pairs as one)
    case 'array': return fc.array(arb(t.item), t.length === undefined ? { maxLength: 4 } : { minLength: t.length, maxLength: t.length });
    case 'tuple': return fc.tuple(...t.members.map((m) => arb(m.type)));
  }
}

const dynamicFunctions = KNOWN_FUNCTIONS.filter((k) => k.args.some((a) => a.abi.dynamic));

test('every known function: data ethers encodes from random arguments decodes to the same values, with no fault', () => {
  for (const fn of KNOWN_FUNCTIONS) {
    const iface = new Interface([`function ${fn.signature}`]);
    fc.assert(fc.property(fc.tuple(...fn.args.map((a) => arb(a.abi))), (values) => {
      const data = iface.encodeFunctionData(fn.signature, values);
      const c = decodeCall(data)!;
      assert.equal(c.fn, fn);
      assert.deepEqual(c.args.map((a) => plainValue(a.decoded!)), values, fn.signature);
      assert.ok(c.args.every((a) => a.fault === undefined));
      assert.equal(callDataFault(fn, data), undefined, data);
    }), { numRuns: fn.args.length === 0 ? 1 : 150 });
  }
  assert.deepEqual(dynamicFunctions.map((k) => k.signature), [
    'safeTransferFrom(address,address,uint256,bytes)', 'isValidSignature(bytes32,bytes)', 'aggregate3((address,bool,bytes)[])',
  ]);
});

test('the decoder holds to ethers on the types no known function takes yet: strings, arrays of all kinds, nested tuples, fixed arrays', () => {
  const types = ['string', 'uint8', 'int256', 'int24', 'bytes7', 'address[]', 'uint256[]', 'bytes[]', 'string[2]', '(uint256,string)[]',
    'bytes32[3]', '(address,(bool,bytes)[])', 'uint256[][]', '(uint8,bool)[2]', 'string[][2]'];
  for (const text of types) {
    const t = parseAbiType(text);
    assert.equal(t.text, text);
    fc.assert(fc.property(fc.tuple(arb(t), arb(t)), (values) => {
      const data = coder.encode([text, text], values);
      const d = decodeArgs([text, text], data);
      assert.deepEqual(d.faults, [], text);
      assert.deepEqual(d.values.map((v) => plainValue(v!)), values, text);
    }), { numRuns: 80 });
  }
});

test('a string argument that begins with a byte order mark keeps it (the random test above met one: TextDecoder drops it by default)', () => {
  for (const values of [['\ufeffab', '\ufeff'], ['a\ufeff', '']]) {
    const d = decodeArgs(['string', 'string'], coder.encode(['string', 'string'], values));
    assert.deepEqual(d.values.map((v) => plainValue(v!)), values);
  }
});

/** The byte of the arguments at which the head word of argument i is. */
const headWord = (i: number) => i * 32;
const setWord = (data: string, byte: number, value: bigint, start = 10) =>
  data.slice(0, start + byte * 2) + value.toString(16).padStart(64, '0') + data.slice(start + byte * 2 + 64);
const wordAt = (data: string, byte: number, start = 10) => BigInt(`0x${data.slice(start + byte * 2, start + byte * 2 + 64)}`);

test('a dynamic argument whose offset is past the end, not a multiple of 32, or inside the head words: a fault naming it, at its word', () => {
  const iface = new Interface(['function safeTransferFrom(address from, address to, uint256 tokenId, bytes data)']);
  const fn = KNOWN_FUNCTIONS.find((k) => k.selector === '0xb88d4fde')!;
  const good = iface.encodeFunctionData('safeTransferFrom', ['0x' + '11'.repeat(20), '0x' + '22'.repeat(20), 7n, '0x' + 'ab'.repeat(40)]);
  const args = (good.length - 10) / 2; // 4 head words, the length word, 2 words of content: 224
  assert.equal(args, 224);
  const cases: [bigint, RegExp, boolean][] = [
    [224n, /^the offset of "data", 224, points past the end of the arguments \(224 bytes\)$/, true],
    [200n, /^the offset of "data", 200, points past the end of the arguments \(224 bytes\): its value's first word would end at byte 232$/, true],
    [1n << 255n, /^the offset of "data", 0x8000000000000000000000000000000000000000000000000000000000000000, points past the end/, true],
    [129n, /^the offset of "data", 129, is not a multiple of 32/, false],
    [32n, /^the offset of "data", 32, points into the head words of the arguments \(bytes 0 to 128\)/, false],
  ];
  for (const [off, message, reverts] of cases) {
    const bad = setWord(good, headWord(3), off);
    const f = callDataFault(fn, bad)!;
    assert.ok(f, `offset ${off}`);
    assert.equal(f.arg, 'data');
    assert.equal(f.at, headWord(3));
    assert.match(f.message, message);
    assert.equal(f.reverts, reverts);
    // The hover says the same on the argument and still shows the others.
    const c = decodeCall(bad)!;
    assert.ok(c.args[3].fault!.startsWith(f.message), c.args[3].fault);
    assert.equal(c.args[2].value, '7');
    assert.match(callMarkdown(c), /- `data` \(bytes\): _the offset of "data", /);
    assert.equal(c.args[3].fault!.endsWith('; the contract reverts when it decodes it'), f.reverts, 'said in the hover when it reverts');
  }
});

test('a length running past the end of the data: bytes by their byte count, arrays by their items\' head words', () => {
  const fn = KNOWN_FUNCTIONS.find((k) => k.selector === '0x1626ba7e')!;
  const good = new Interface([`function ${fn.signature}`]).encodeFunctionData(fn.signature, ['0x' + '00'.repeat(32), '0x' + 'cd'.repeat(65)]);
  // Offset 64; the length word at byte 64; 65 bytes of content in 3 words: the arguments are 64 + 32 + 96 = 192 bytes.
  const long = setWord(good, 64, 97n);
  const f = callDataFault(fn, long)!;
  assert.deepEqual({ arg: f.arg, at: f.at }, { arg: 'signature', at: 64 });
  assert.match(f.message, /^the length of "signature", 97 bytes, runs past the end of the arguments: its content would end at byte 193 of 192/);
  // Up to the last byte, unpadded, is read (Solidity's decoder asks no padding).
  assert.equal(callDataFault(fn, setWord(good, 64, 96n)), undefined);
  assert.equal(callDataFault(fn, good.slice(0, -62)), undefined, 'the padding cut off');
  assert.match(callDataFault(fn, setWord(good, 64, 1n << 200n))!.message, /^the length of "signature", 0x100000000000000000000000000000000000000000000000000, runs past the end of the arguments \(192 bytes\)$/);

  const agg = KNOWN_FUNCTIONS.find((k) => k.selector === '0x82ad56cb')!;
  const calls = [['0x' + '11'.repeat(20), true, '0x70a08231' + '00'.repeat(32)], ['0x' + '22'.repeat(20), false, '0x18160ddd']];
  const data = new Interface([`function ${agg.signature}`]).encodeFunctionData(agg.signature, [calls]);
  assert.equal(callDataFault(agg, data), undefined);
  // The array: offset 32 at byte 0, its length word at byte 32, the items' offsets at 64 and 96 (relative to byte 64).
  assert.equal(wordAt(data, 32), 2n);
  const many = callDataFault(agg, setWord(data, 32, 1000n))!;
  assert.deepEqual({ arg: many.arg, at: many.at }, { arg: 'calls', at: 32 });
  assert.match(many.message, /^the length of "calls", 1000 items, runs past the end of the arguments: their head words would end at byte 32064 of \d+/);
  // The second item's offset, then its callData's offset and length (relative to the item's start).
  const second = Number(wordAt(data, 96)) + 64;
  const item = callDataFault(agg, setWord(data, 96, 5000n))!;
  assert.deepEqual({ arg: item.arg, at: item.at }, { arg: 'calls[1]', at: 96 });
  assert.match(item.message, /^the offset of "calls\[1\]", 5000, points past the end/);
  const inner = callDataFault(agg, setWord(data, second + 64, 4096n))!;
  assert.deepEqual({ arg: inner.arg, at: inner.at }, { arg: 'calls[1].callData', at: second + 64 });
  const innerOffset = Number(wordAt(data, second + 64));
  const innerLength = callDataFault(agg, setWord(data, second + innerOffset, 33n))!;
  assert.deepEqual({ arg: innerLength.arg, at: innerLength.at }, { arg: 'calls[1].callData', at: second + innerOffset });
  assert.match(innerLength.message, /^the length of "calls\[1\]\.callData", 33 bytes, runs past the end/);
  // An item's offset into the items' own head words (relative to byte 64, they end at 128).
  assert.match(callDataFault(agg, setWord(data, 64, 32n))!.message, /^the offset of "calls\[0\]", 32, points into the head words of "calls" \(bytes 64 to 128\)/);
});

test('random corruption of an offset or a length word of the known dynamic functions: a fault at that word, or none when it still fits', () => {
  for (const fn of dynamicFunctions) {
    const iface = new Interface([`function ${fn.signature}`]);
    fc.assert(fc.property(fc.tuple(...fn.args.map((a) => arb(a.abi))), fc.bigInt(0n, (1n << 256n) - 1n), (values, garbage) => {
      const data = iface.encodeFunctionData(fn.signature, values);
      const i = fn.args.findIndex((a) => a.abi.dynamic);
      const end = (data.length - 10) / 2;
      const off = Number(wordAt(data, headWord(i)));
      // The offset word: past the end, or any value (a fault there or, if it still lands on a readable length, maybe none).
      const past = callDataFault(fn, setWord(data, headWord(i), BigInt(end) + (garbage % 1000n)))!;
      assert.equal(past.at, headWord(i));
      assert.match(past.message, /points past the end/);
      const any = callDataFault(fn, setWord(data, headWord(i), garbage));
      if (garbage >= BigInt(end) - 31n) assert.equal(any?.at, headWord(i));
      // The length word: larger than what follows it.
      const tooLong = callDataFault(fn, setWord(data, off, BigInt(end) + (garbage % 1000n)))!;
      assert.equal(tooLong.at, off);
      assert.match(tooLong.message, /^the length of "[a-zA-Z]+", \d+ (bytes|items), runs past the end/);
    }), { numRuns: 100 });
  }
});

test('the hover shows dynamic values: bytes as hex, strings as text with odd bytes escaped, arrays item by item, shortened past 10', () => {
  const sig = decodeCall(new Interface(['function isValidSignature(bytes32,bytes)']).encodeFunctionData('isValidSignature', ['0x' + '00'.repeat(32), '0x1234']))!;
  assert.equal(sig.args[1].value, '0x1234 (2 bytes)');
  const long = decodeCall(new Interface(['function isValidSignature(bytes32,bytes)']).encodeFunctionData('isValidSignature', ['0x' + '00'.repeat(32), '0x' + 'ef'.repeat(100)]))!;
  assert.equal(long.args[1].value, `0x${'ef'.repeat(64)}… (100 bytes)`);

  const text = (bytes: string) => decodeArgs(['string'], coder.encode(['bytes'], [bytes])).text[0];
  assert.equal(text(hexOf(Buffer.from('Hello, "world"\n\\'))), '"Hello, \\"world\\"\\n\\\\"');
  assert.equal(text(hexOf(Buffer.from('é😀'))), '"é😀"');
  assert.equal(text('0x41ff42c0af00'), '"A\\xffB\\xc0\\xaf\\u0000"', 'invalid UTF-8 and NUL');
  assert.equal(text(hexOf(Buffer.from('a\u202eb\u0085'))), '"a\\u202eb\\u0085"', 'bidi and C1 controls');
  assert.equal(text('0xeda080'), '"\\xed\\xa0\\x80"', 'a surrogate half is not UTF-8');
  assert.equal(text('0xf48fbfbf'), '"\u{10ffff}"', 'U+10FFFF, the last code point, is UTF-8');
  assert.equal(text('0xf4908080'), '"\\xf4\\x90\\x80\\x80"', 'past U+10FFFF is not');
  assert.equal(text(hexOf(Buffer.from('x'.repeat(300)))), `"${'x'.repeat(200)}"… (300 bytes)`);

  const agg = KNOWN_FUNCTIONS.find((k) => k.selector === '0x82ad56cb')!;
  const calls = Array.from({ length: 12 }, (_, i) => ['0x' + String(i % 10).repeat(40), i % 2 === 0, i === 0 ? '0x70a08231' + '00'.repeat(32) : '0x']);
  const c = decodeCall(new Interface([`function ${agg.signature}`]).encodeFunctionData(agg.signature, [calls]))!;
  assert.equal(c.args[0].value, '12 items');
  assert.equal(c.args[0].items!.length, 10);
  assert.equal(c.args[0].items![0], `(target: 0x${'0'.repeat(40)}, allowFailure: true, callData: 0x70a08231${'00'.repeat(32)} (36 bytes: balanceOf(address)))`);
  assert.equal(c.args[0].items![1], `(target: 0x${'1'.repeat(40)}, allowFailure: false, callData: 0x (0 bytes))`);
  assert.equal(c.args[0].more, 2);
  const md = callMarkdown(c);
  assert.match(md, /- `calls` \(\(address,bool,bytes\)\[\]\): 12 items\n {2}- \[0\] \(target: /);
  assert.match(md, /\n {2}- … and 2 more$/);
  // A string's text cannot break the hover's markdown.
  const strings = decodeArgs(['string[]'], coder.encode(['string[]'], [['*a* `b` <i>']])).text[0];
  assert.equal(strings, '["*a* `b` <i>"]');
  const fake = { selector: '0x00000000', standard: 'test', signature: 'f(string[])', args: [], head: 32, dynamic: true };
  assert.equal(callMarkdown({ fn: fake, shortBy: 0, args: [{ name: 's', type: 'string[]', value: strings }] }),
    '**f(string[])** (test), selector `0x00000000`\n- `s` (string[]): \\["\\*a\\* \\`b\\` \\<i\\>"\\]');
  // An array of static items inline, shortened the same way.
  assert.equal(decodeArgs(['uint8[]'], coder.encode(['uint8[]'], [Array.from({ length: 13 }, (_, i) => i)])).text[0], '[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 3 more]');
});

test('a dynamic argument before a static one: its offset counts past the whole head, and a fault in it is found', () => {
  const abi = (t: string) => parseAbiType(t);
  const fn = { selector: '0x00000000', standard: 'test', signature: 'f(bytes,uint256,(uint8,bool))', head: 128, dynamic: true,
    args: [{ name: 'b', type: 'bytes', abi: abi('bytes') }, { name: 'n', type: 'uint256', abi: abi('uint256') }, { name: 's', type: '(uint8,bool)', abi: abi('(uint8,bool)') }] };
  const data = `0x00000000${coder.encode(['bytes', 'uint256', '(uint8,bool)'], ['0xabcd', 5n, [7, true]]).slice(2)}`;
  assert.equal(wordAt(data, 0), 128n, 'a static tuple takes its words in the head');
  assert.equal(callDataFault(fn, data), undefined);
  assert.match(callDataFault(fn, setWord(data, 0, 96n))!.message, /^the offset of "b", 96, points into the head words of the arguments \(bytes 0 to 128\)/);
  assert.match(callDataFault(fn, setWord(data, 128, 64n))!.message, /^the length of "b", 64 bytes, runs past the end/);
});
