import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redact } from '../../../client/src/http/redact';

test('redact masks every credential form EdgeKit handles', () => {
  const cases: [string, string][] = [
    ['Authorization: Bearer abc.def', 'Authorization: Bearer ***'],
    ['X-Auth-Key: 0123abcd', 'X-Auth-Key: ***'],
    ['X-Auth-Email: me@example.com', 'X-Auth-Email: ***'],
    ['s3://b/p?region=us-east-1&access-key-id=AKIA1&secret-access-key=SUPERSECRET', 's3://b/p?region=us-east-1&access-key-id=***&secret-access-key=***'],
    ['datadog://h?header_DD-API-KEY=k123&service=x', 'datadog://h?header_DD-API-KEY=***&service=x'],
    ['https://h/p?header_Authorization=Basic%20xyz', 'https://h/p?header_Authorization=***'],
    ['azure://c?sig=abcdef&sv=2020', 'azure://c?sig=***&sv=2020'],
    ['https://user:pass@host/x', 'https://***@host/x'],
  ];
  for (const [input, expected] of cases) assert.equal(redact(input), expected, input);
  assert.equal(redact('region=us-east-1 and nothing secret'), 'region=us-east-1 and nothing secret');
});

test('redact masks credentials in the other shapes they reach a message in: JSON-quoted headers, Basic, SigV4, presigned URLs', () => {
  const cases: [string, string][] = [
    // a headers object printed as JSON (an error's message or a stack may carry one)
    ['{"Authorization":"Bearer abc.def","X-Auth-Key":"0123abcd","X-Auth-Email":"me@example.com"}', '{"Authorization":"Bearer ***","X-Auth-Key":"***","X-Auth-Email":"***"}'],
    ["{ authorization: 'Bearer abc.def' }", "{ authorization: 'Bearer ***' }"],
    ['Authorization: Basic dXNlcjpwYXNz', 'Authorization: Basic ***'],
    // Splunk HEC's scheme (a Splunk destination's header)
    ['Authorization: Splunk 0a1b-2c3d', 'Authorization: Splunk ***'],
    // SigV4 (the mock's S3 uploads): the access key id and the signature
    ['Authorization: AWS4-HMAC-SHA256 Credential=AKIAEXAMPLE/20261126/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=0123abcd',
      'Authorization: AWS4-HMAC-SHA256 Credential=***, SignedHeaders=host;x-amz-date, Signature=***'],
    // a presigned URL
    ['https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=abcd&X-Amz-Security-Token=tok',
      'https://b.s3.amazonaws.com/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Security-Token=***'],
    // a password holding @
    ['https://user:p@ss@host/x', 'https://***@host/x'],
    // a bearer token on its own
    ['token rejected: Bearer eyJhbGciOi.abc.def', 'token rejected: Bearer ***'],
    // a Sumo Logic HTTP source's code (anyone with the URL can send logs to it)
    ['POST to sumo://endpoint.collection.sumologic.com/receiver/v1/http/ZaVnC4dhaV0?compress=true failed',
      'POST to sumo://endpoint.collection.sumologic.com/receiver/v1/http/***?compress=true failed'],
  ];
  for (const [input, expected] of cases) assert.equal(redact(input), expected, input);
  for (const keep of ['Use a Bearer token or X-Auth-Key and X-Auth-Email.', 'SignedHeaders=host', 'mail me@example.com at https://host/x', 'A sumo destination has the form sumo://<endpoint>/receiver/v1/http/<code>.']) {
    assert.equal(redact(keep), keep);
  }
});

test('redact masks user:password@ in a URL whose "://" a typo broke, and leaves an e-mail address in prose (lf18)', () => {
  // The mask needed "scheme://": "http//KEY:SECRET@host" or "https:/user:pass@host" in a message showed the secret.
  const cases: [string, string][] = [
    ['GET http//KEY:SECRET@host/x failed', 'GET http//***@host/x failed'],
    ['https:/user:pass@host/x', 'https:/***@host/x'],
    ['s3//AKIA1:SUPERSECRET@bucket/logs', 's3//***@bucket/logs'],
    ['https:///user:pass@host', 'https:///***@host'],
    ['https:\\\\user:pass@host', 'https:\\\\***@host'],
    ['http:\\user:pass@host', 'http:\\***@host'],
    ['"https:/user:p@ss@host"', '"https:/***@host"'],
    // both slashes lost: masked when the user part holds a ":" (a password), so "mailto:me@example.com" stays below
    ['https:user:pass@host', 'https:***@host'],
    // a token as the user alone
    ['http//0123abcdef@host', 'http//***@host'],
    // a colon doubled (rv34: shown as written)
    ['https:://user:pass@host', 'https:://***@host'],
    ['http::\\user:pass@host', 'http::\\***@host'],
  ];
  for (const [input, expected] of cases) assert.equal(redact(input), expected, input);
  for (const keep of ['mail me@example.com at https://host/x', 'mailto:me@example.com', 'Contact:me@example.com', 'Email: me@example.com',
    'see http//example.com or me@example.com', 'https://host/a//b@c', 'and/or me@example.com', 'https://host/x.y//z@w']) {
    assert.equal(redact(keep), keep);
  }
});

test('redact reads a long line in linear time: dotted words and repeated "?header_" (rv34)', () => {
  // redact() runs on every log line and every error shown. The userinfo mask tried a scheme from every word start (\b) and ran each
  // over the rest of the dotted or hyphenated run: 80 KB of "a.a.a…" took 4 s, so this 1 MB line some ten minutes; the header_
  // query key ran from every "?header_" to the end of the line looking for its "=" (80 KB: 1 s). Both now start at their "://" or
  // "=" and look back. Tests never time: a return shows as minutes of this test (a timeout cannot stop a regular expression).
  assert.equal(redact(`${'a.'.repeat(500_000)}https://user:pw@host`), `${'a.'.repeat(500_000)}https://***@host`);
  assert.equal(redact(`${'a-'.repeat(500_000)}b+c`), `${'a-'.repeat(500_000)}b+c`);
  assert.equal(redact(`${'?header_'.repeat(125_000)}&header_X-Key=secret`), `${'?header_'.repeat(125_000)}&header_X-Key=***`);
  // lf18's no-slash mask, whose password stops at a second ":" (scanned to the line's end, 100 KB of "a:a:a…" took 3.5 s): untested
  assert.equal(redact('a:'.repeat(500_000)), 'a:'.repeat(500_000));
});
