// Conformance table: expressions from cloudflare/wirefilter's own unit tests (engine/src/**, read at af1a1e96), each with
// wirefilter's verdict (accepted or refused) as those tests assert it, written as a whole filter on the platform's fields.
// The expressions are test data written by reading the tests; no wirefilter code is copied.
//
// wirefilter's tests use small schemes of their own. Their fields are mapped to platform fields of the same type:
//   http.host (Bytes) -> http.host (String)            ip.addr (Ip) -> ip.src              ssl (Bool) -> ssl
//   tcp.port (Int) -> cf.edge.server_port              tcp.ports (Array(Int)) -> cf.bot_management.detection_ids
//   http.cookies, test, http.request.headers.names (Array(Bytes)) -> http.request.headers.names
//   http.parts, test2 (Array(Array(Bytes))) -> http.request.body.multipart.names
//   str/num/ip/bool/str_arr (scheme.rs) -> http.host / cf.edge.server_port / ip.src / ssl / http.request.headers.names
//   Map(Array(Bytes)) -> http.request.headers;  tcp.dstport, udp.dstport, tcp.srcport, tcp.flags.syn -> the same Network
//   Firewall fields (phase magic_transit)
//   functions: echo/lowercase (one Bytes field) -> lower, len -> len, concat -> concat, any/all -> any/all; a call whose
//   argument count the test scheme allows and the platform's function does not (concat with one argument) is left out.
// A test that lexes a part (a literal, a ComparisonExpr) is written as the whole filter that holds it: `tcp.port eq <literal>`,
// `any(<comparison>)` around a per-element comparison (a filter must be Bool). Rows whose fields have no platform counterpart
// (Map(Bytes), Array(Bool)) are left out, and so are tests that change the parser's settings (nesting or star limits).
//
// `wirefilter` is the verdict of wirefilter; EdgeKit's verdict is "accepted" when the checker reports no error (warnings are
// allowed: they flag what the platform takes but likely does not mean). `divergence` marks a row where EdgeKit knowingly differs,
// with the reason (docs/architecture.md, "wirefilter conformance").

export interface ConformanceRow {
  /** The wirefilter file and test the case comes from ("source:" when it is read from the lexer, not from a test). */
  from: string;
  /** The expression as the platform would get it. */
  expr: string;
  wirefilter: 'accepted' | 'refused';
  /** The ruleset phase the checker is given (default http_request_firewall_custom). */
  phase?: string;
  /** Why EdgeKit's verdict is the other one, on purpose. */
  divergence?: string;
}

const H = '#';
const port = (lit: string) => `cf.edge.server_port eq ${lit}`;
const host = (lit: string) => `http.host eq ${lit}`;

const INT = 'rhs_types/int.rs test';
const BYTES = 'rhs_types/bytes.rs test';
const RAW = 'rhs_types/bytes.rs test_raw_string';
const IP = 'rhs_types/ip.rs test_lex';
const LIST = 'rhs_types/list.rs test';
const REGEX = 'rhs_types/regex/mod.rs test';
const WILD = 'rhs_types/wildcard.rs';
const FIELD = 'ast/field_expr.rs';
const FUNC = 'ast/function_expr.rs';
const INDEX = 'ast/index_expr.rs';
const LOGICAL = 'ast/logical_expr.rs test';
const SCHEME = 'scheme.rs';

const IP_ORDERING = 'the platform\'s operators reference (operators.mdx) marks lt/le/gt/ge as not supported for IP; wirefilter orders addresses';
const BITWISE = 'the platform\'s operators reference lists every comparison operator it supports, and "&"/"bitwise_and" is not among them';
const LIST_CAPITALS = 'the Lists API\'s JSON object page gives list names as ^[a-zA-Z0-9_]+$, so a list may have capitals; the lists overview says lowercase (a warning, ruleset/expr-list-name-case)';
const DYNAMIC = 'the platform compares two fields or function results with equality and ordering since 2026-10-01 (changelog "Compare dynamic values"); wirefilter af1a1e96 reads a literal only on the right (RhsValue::lex_with)';
const LIST_DOTS = 'a custom list\'s name is letters, digits and "_" (Lists API); a dotted name is only a managed list, $cf.<name>';

export const ROWS: readonly ConformanceRow[] = [
  // --- integers: i64::lex and IntRange::lex, on the right of an Int field
  { from: INT, expr: port('0'), wirefilter: 'accepted' },
  { from: INT, expr: port('0-'), wirefilter: 'refused' },
  { from: INT, expr: port('0x1f5'), wirefilter: 'accepted' },
  { from: INT, expr: port('0x1f5+'), wirefilter: 'refused' },
  { from: INT, expr: port('0123'), wirefilter: 'accepted' },
  { from: INT, expr: port('78!'), wirefilter: 'refused' },
  { from: INT, expr: port('0xefg'), wirefilter: 'refused' },
  { from: INT, expr: port('-12'), wirefilter: 'accepted' },
  { from: INT, expr: port('-12-'), wirefilter: 'refused' },
  { from: INT, expr: port('-9223372036854775808'), wirefilter: 'accepted' },
  { from: INT, expr: port('-9223372036854775809'), wirefilter: 'refused' },
  { from: INT, expr: port('9223372036854775807'), wirefilter: 'accepted' },
  { from: INT, expr: port('9223372036854775808'), wirefilter: 'refused' },
  { from: INT, expr: port('10fe'), wirefilter: 'refused' },
  { from: INT, expr: 'cf.edge.server_port in {78}', wirefilter: 'accepted' },
  { from: INT, expr: 'cf.edge.server_port in {0..10}', wirefilter: 'accepted' },
  { from: INT, expr: 'cf.edge.server_port in {0123..0xef}', wirefilter: 'accepted' },
  { from: INT, expr: 'cf.edge.server_port in {0123..0xefg}', wirefilter: 'refused' },
  { from: INT, expr: 'cf.edge.server_port in {-20..-10}', wirefilter: 'accepted' },
  { from: INT, expr: 'cf.edge.server_port in {10..0}', wirefilter: 'refused' },

  // --- byte strings and quoted strings: BytesExpr::lex, on the right of a Bytes field
  { from: BYTES, expr: host('01:2e:f3-77.12'), wirefilter: 'accepted' },
  { from: BYTES, expr: host('01:2e:f3-77.12;'), wirefilter: 'refused' },
  { from: BYTES, expr: host(String.raw`"s\\t\"r\x0A\000t"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host('01:4x'), wirefilter: 'refused' },
  { from: BYTES, expr: host('01'), wirefilter: 'refused' },
  { from: BYTES, expr: host('01:'), wirefilter: 'refused' },
  { from: BYTES, expr: host('01:2f-34'), wirefilter: 'accepted' },
  { from: BYTES, expr: host('"1'), wirefilter: 'refused' },
  { from: BYTES, expr: host(String.raw`"\n"`), wirefilter: 'refused' },
  { from: BYTES, expr: host(String.raw`"abcd\"`), wirefilter: 'refused' },
  { from: BYTES, expr: host(String.raw`"\01😢"`), wirefilter: 'refused' },
  { from: BYTES, expr: host(String.raw`"\x3😢"`), wirefilter: 'refused' },
  { from: BYTES, expr: host('12:3😢'), wirefilter: 'refused' },
  { from: BYTES, expr: host(String.raw`"\x7F"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host(String.raw`"\x80"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host(String.raw`"\xFF"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host(String.raw`"\177"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host(String.raw`"\200"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host(String.raw`"\377"`), wirefilter: 'accepted' },
  { from: BYTES, expr: host('c2:b4710c6888a5d47befe865c8e6fb19'), wirefilter: 'refused' },

  // --- raw strings: lex_raw_string_as_str
  { from: RAW, expr: host('r""'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r#""#'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r##""##'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r###""###'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r"a"'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r#"a"#'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r###"a"###'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r"#"'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r"a#"'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r#""a"""#'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r##""a"#b"##'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r###"a###"##""###'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r#"a"""#'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r##"a"#"##'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r###"a###"##"###'), wirefilter: 'accepted' },
  { from: RAW, expr: host('r#"a"'), wirefilter: 'refused' },
  { from: RAW, expr: host('r##"a"#'), wirefilter: 'refused' },
  { from: RAW, expr: host('r###"a"##'), wirefilter: 'refused' },
  { from: RAW, expr: host(`r${H.repeat(255)}"abc"${H.repeat(255)}`), wirefilter: 'accepted' },
  { from: RAW, expr: host(`r${H.repeat(256)}"abc"${H.repeat(256)}`), wirefilter: 'refused' },
  { from: RAW, expr: host(String.raw`r".\d\D\pA\p{Greek}\PA\P{Greek}[xyz][^xyz][a-z][[:alpha:]][[:^alpha:]][x[^xyz]][a-y&&xyz][0-9&&[^4]][0-9--4][a-g~~b-h][\[\]]"`), wirefilter: 'accepted' },
  { from: RAW, expr: host(String.raw`r#"\*\a\f\t\n\r\v\123\x7F\x{10FFFF}\u007F\u{7F}\U0000007F\U{7F}"#`), wirefilter: 'accepted' },
  { from: RAW, expr: host('r'), wirefilter: 'refused' },
  { from: RAW, expr: host('r#ab'), wirefilter: 'refused' },
  { from: RAW, expr: host('r##ab'), wirefilter: 'refused' },
  { from: RAW, expr: host('r#"ab"##'), wirefilter: 'refused' },
  { from: RAW, expr: host('r#"ab"#"'), wirefilter: 'refused' },
  { from: RAW, expr: host('r#"ab"#a'), wirefilter: 'refused' },
  // The brief's case: more than 255 "#" with no quote after them (InvalidRawStringHashCount before the quote is looked for)
  { from: 'source: rhs_types/bytes.rs lex_raw_string_as_str', expr: host(`r${H.repeat(300)}abc`), wirefilter: 'refused' },

  // --- IP literals in a set: IpRange::lex (an address or CIDR through cidr 0.2's IpCidr::from_str; a range through IpAddr::from_str)
  { from: IP, expr: 'ip.src in {12.34.56.78}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {12.34.56.0/24}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {12.34.56.0/32}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {::/10}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {::ffff:12.34.56.78/127}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {1234::5678}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {10.0.0.0..127.0.0.1}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {::1..::2}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {1.1.1.01}', wirefilter: 'accepted' },
  { from: IP, expr: 'ip.src in {10.0.0.0/100}', wirefilter: 'refused' },
  { from: IP, expr: 'ip.src in {::/.1}', wirefilter: 'refused' },
  { from: IP, expr: 'ip.src in {10.0.0.0..::1}', wirefilter: 'refused' },
  { from: IP, expr: 'ip.src in {::1..10.0.0.0}', wirefilter: 'refused' },
  { from: IP, expr: 'ip.src in {127.0.0.1..10.0.0.0}', wirefilter: 'refused' },
  { from: IP, expr: 'ip.src in {::2..::1}', wirefilter: 'refused' },
  { from: IP, expr: 'ip.src in {10.0.0.0.0/10}', wirefilter: 'refused' },

  // --- list names: ListName::lex
  { from: LIST, expr: 'ip.src in $hello', wirefilter: 'accepted' },
  { from: LIST, expr: 'ip.src in $hello_world', wirefilter: 'accepted' },
  { from: LIST, expr: 'ip.src in $hello.world', wirefilter: 'accepted', divergence: LIST_DOTS },
  { from: LIST, expr: 'ip.src in $hello1234567890', wirefilter: 'accepted' },
  { from: LIST, expr: 'ip.src in $', wirefilter: 'refused' },
  { from: LIST, expr: 'ip.src in $.', wirefilter: 'refused' },
  { from: LIST, expr: 'ip.src in $.abc', wirefilter: 'refused' },
  { from: LIST, expr: 'ip.src in $abc.', wirefilter: 'refused' },

  // --- regexes: Regex::lex_with (a quoted string read with regex escaping, or a raw string)
  { from: REGEX, expr: String.raw`http.host matches "[a-z"\]]+\d{1,10}\""`, wirefilter: 'accepted' },
  { from: REGEX, expr: String.raw`http.host matches "abcd\"`, wirefilter: 'refused' },
  { from: REGEX, expr: String.raw`http.host matches r#"[a-z"\]]+\d{1,10}""#`, wirefilter: 'accepted' },
  { from: REGEX, expr: String.raw`http.host matches r#"(?u)\*\a\f\t\n\r\v\x7F\x{10FFFF}\u007F\u{7F}\U0000007F\U{7F}"#`, wirefilter: 'accepted' },
  { from: REGEX, expr: 'http.host matches x', wirefilter: 'refused' },

  // --- wildcards: Wildcard::lex_with, for both operators
  ...(['wildcard', 'strict wildcard'] as const).flatMap((op): ConformanceRow[] => [
    { from: `${WILD} test_wildcard_lex_quoted_string`, expr: `http.host ${op} "a quoted string"`, wirefilter: 'accepted' },
    { from: `${WILD} test_wildcard_lex_quoted_string`, expr: String.raw`http.host ${op} "abcd\"`, wirefilter: 'refused' },
    { from: `${WILD} test_wildcard_lex_raw_string`, expr: String.raw`http.host ${op} r##"a raw\\xaa r#""# string"##`, wirefilter: 'accepted' },
    { from: `${WILD} test_wildcard_lex_raw_string`, expr: `http.host ${op} r#"abc`, wirefilter: 'refused' },
    { from: `${WILD} test_wildcard_lex_escape_quoted_string_invalid_utf8`, expr: String.raw`http.host ${op} "a quoted \xaa\x22 string"`, wirefilter: 'accepted' },
    { from: `${WILD} test_wildcard_lex_reject_bytes_syntax`, expr: `http.host ${op} 61:20:71:75:6F:74`, wirefilter: 'refused' },
    { from: `${WILD} test_wildcard_invalid_escape`, expr: String.raw`http.host ${op} r"*foo\bar*"`, wirefilter: 'refused' },
    { from: `${WILD} test_wildcard_double_star`, expr: `http.host ${op} "*foo*bar*"`, wirefilter: 'accepted' },
    { from: `${WILD} test_wildcard_double_star`, expr: `http.host ${op} "*foo**bar*"`, wirefilter: 'refused' },
  ]),

  // --- comparisons: ComparisonExpr::lex_with
  { from: `${FIELD} test_is_true`, expr: 'ssl', wirefilter: 'accepted' },
  { from: `${FIELD} test_ip_compare`, expr: 'ip.src <= 10:20:30:40:50:60:70:80', wirefilter: 'accepted', divergence: IP_ORDERING },
  { from: `${FIELD} test_bytes_compare`, expr: 'http.host >= 10:20:30:40:50:60:70:80', wirefilter: 'accepted' },
  { from: `${FIELD} test_bytes_compare`, expr: 'http.host < 12', wirefilter: 'refused' },
  { from: `${FIELD} test_bytes_compare`, expr: 'http.host < 12:13', wirefilter: 'accepted' },
  { from: `${FIELD} test_bytes_compare`, expr: 'http.host == "example.org"', wirefilter: 'accepted' },
  { from: `${FIELD} test_bitwise_and`, expr: 'cf.edge.server_port & 1', wirefilter: 'accepted', divergence: BITWISE },
  { from: `${FIELD} test_int_in`, expr: 'cf.edge.server_port in { 80 443 2082..2083 }', wirefilter: 'accepted' },
  { from: `${FIELD} test_bytes_in`, expr: 'http.host in { "example.org" "example.com" }', wirefilter: 'accepted' },
  { from: `${FIELD} test_ip_in`, expr: 'ip.src in { 127.0.0.0/8 ::1 10.0.0.0..10.0.255.255 }', wirefilter: 'accepted' },
  { from: `${FIELD} test_contains_bytes`, expr: 'http.host contains "abc"', wirefilter: 'accepted' },
  { from: `${FIELD} test_contains_str`, expr: 'http.host contains 6F:72:67', wirefilter: 'accepted' },
  { from: `${FIELD} test_int_compare`, expr: 'cf.edge.server_port < 8000', wirefilter: 'accepted' },
  { from: `${FIELD} test_array_contains_str`, expr: 'http.request.headers.names[0] contains "abc"', wirefilter: 'accepted' },
  { from: `${FIELD} test_bytes_compare_with_echo_function`, expr: 'lower(http.host) == "example.org"', wirefilter: 'accepted' },
  { from: `${FIELD} test_missing_array_value_equal`, expr: 'http.request.headers.names[0] == "example.org"', wirefilter: 'accepted' },
  { from: `${FIELD} test_missing_array_value_not_equal`, expr: 'http.request.headers.names[0] != "example.org"', wirefilter: 'accepted' },
  { from: `${FIELD} test_bytes_compare_with_concat_function`, expr: 'concat(http.host, ".org") == "example.org"', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_on_array_with_function`, expr: 'concat(http.request.headers.names[*], "-cf")[2] == "three-cf"', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_on_array_for_cmp`, expr: 'any(http.request.headers.names[*] == "three")', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_on_array_for_cmp`, expr: 'http.request.headers.names[*] == "three"', wirefilter: 'refused' },
  { from: `${FIELD} test_map_each_on_array_full`, expr: 'any(concat(http.request.headers.names[*], "-cf")[*] == "three-cf")', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_on_array_len_function`, expr: 'any(len(http.request.headers.names[*])[*] > 3)', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_error`, expr: 'any(http.host[*] == "three")', wirefilter: 'refused' },
  { from: `${FIELD} test_map_each_error`, expr: 'any(ip.src[*] == 127.0.0.1)', wirefilter: 'refused' },
  { from: `${FIELD} test_map_each_error`, expr: 'any(ssl[*])', wirefilter: 'refused' },
  { from: `${FIELD} test_map_each_error`, expr: 'any(cf.edge.server_port[*] == 80)', wirefilter: 'refused' },
  { from: `${FIELD} test_number_in_list`, expr: 'cf.edge.server_port in $even', wirefilter: 'accepted' },
  { from: `${FIELD} test_any_number_in_list`, expr: 'any(cf.bot_management.detection_ids[*] in $even)', wirefilter: 'accepted' },
  { from: `${FIELD} test_any_all_functions_with_missing_arrays`, expr: 'any(http.request.headers["missing"][*] matches "bar")', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_nested`, expr: 'any(http.request.body.multipart.names[*][*] == "[5][5]")', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_nested`, expr: 'any(http.request.body.multipart.names[5][*] == "[5][5]")', wirefilter: 'accepted' },
  { from: `${FIELD} test_map_each_nested`, expr: 'any(http.request.body.multipart.names[*][5] == "[5][5]")', wirefilter: 'accepted' },
  { from: `${FIELD} test_raw_string`, expr: 'http.host == r###"ab"###', wirefilter: 'accepted' },
  { from: `${FIELD} test_raw_string`, expr: 'http.host matches r###"a.b"###', wirefilter: 'accepted' },
  { from: `${FIELD} test_raw_string`, expr: String.raw`http.host wildcard r##"foo*\*\\"##`, wirefilter: 'accepted' },
  { from: `${FIELD} test_raw_string`, expr: String.raw`http.host strict wildcard r##"foo*\*\\"##`, wirefilter: 'accepted' },
  { from: `${FIELD} test_raw_string`, expr: 'concat(http.host, r#"cd"#) == r##"abcd"##', wirefilter: 'accepted' },
  ...[String.raw`r"foo?*\*\\"`, String.raw`r#"foo?*\*\\"#`, String.raw`r"¯\\_(ツ*)_/¯"`, String.raw`"foo?*\\*\\\\"`, String.raw`"fo\x6f"`,
    String.raw`"¯\\\\_(ツ*)_/¯"`, String.raw`"\xaa\x22"`, '"?"', '"a"'].flatMap((rhs): ConformanceRow[] => [
    { from: `${FIELD} test_wildcard_escapes`, expr: `http.host wildcard ${rhs}`, wirefilter: 'accepted' },
    { from: `${FIELD} test_wildcard_escapes`, expr: `http.host strict wildcard ${rhs}`, wirefilter: 'accepted' },
  ]),
  { from: `${FIELD} test_optional_fields`, phase: 'magic_transit', expr: '(tcp.dstport != 80) or (udp.dstport != 80)', wirefilter: 'accepted' },
  { from: `${FIELD} test_optional_fields`, phase: 'magic_transit', expr: '(tcp.srcport == 1337) and ((tcp.dstport != 80) and ((tcp.flags.syn) or (udp.dstport != 80)))', wirefilter: 'accepted' },
  { from: `${FIELD} test_optional_fields`, phase: 'magic_transit', expr: 'not (not tcp.flags.syn)', wirefilter: 'accepted' },
  { from: `${FIELD} test_optional_fields`, phase: 'magic_transit', expr: 'not (tcp.dstport eq 80)', wirefilter: 'accepted' },

  // --- function calls: FunctionCallExpr / FunctionCallArgExpr
  { from: `${FUNC} test_lex_function_call_expr`, expr: 'lower ( http.host ) eq "a"', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_call_expr`, expr: 'lower ( ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr`, expr: 'lower ( http.host , http.host ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr`, expr: 'lower ( lower ( http.host ) ) eq "a"', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_call_expr`, expr: 'any(lower(http.request.headers.names[*])[*] contains "c")', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_call_expr`, expr: 'any(len(http.request.headers.names[*])[*] gt 1)', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_with_unary_expression_as_argument`, expr: 'any(not(http.request.headers.names[*] in {"Cookie" "Cookies"}))', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_with_unary_expression_as_argument`, expr: 'any(!(http.request.headers.names[*] in {"Cookie" "Cookies"}))', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_call_raw_string`, expr: 'regex_replace(http.host, r"this is a r##raw## string", r"this is a new r##raw## string") eq "test"', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_call_raw_string`, expr: 'regex_replace(http.host, r###"this is a r##"raw"## string"###, r###"this is a new r##"raw"## string"###) eq "test"', wirefilter: 'accepted' },
  { from: `${FUNC} test_lex_function_call_raw_string`, expr: 'regex_replace(http.host, r#"a", "b") eq "c"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_raw_string`, expr: 'regex_replace(http.host, r"a"#, "b") eq "c"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_raw_string`, expr: 'regex_replace(http.host, r##"a"#, "b") eq "c"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'lower ( 10 ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'lower ( ip.src ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'lower ( http.test ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'lower ( lower ( http.test ) ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'lower ( http.host[*] ) eq "a"', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'any(lower ( http.request.headers.names[0][*] )[*] eq "a")', wirefilter: 'refused' },
  { from: `${FUNC} test_lex_function_call_expr_failure`, expr: 'any(lower ( http.request.headers.names[*][0] )[*] eq "a")', wirefilter: 'refused' },

  // --- indexes: IndexExpr / FieldIndex
  ...[0, 1, 99, 999, 9999, 99999].map((i): ConformanceRow => ({ from: `${INDEX} test_array_indices`, expr: `http.request.headers.names[${i}] eq "a"`, wirefilter: 'accepted' })),
  { from: `${INDEX} test_array_indices`, expr: 'http.request.headers.names[-1] eq "a"', wirefilter: 'refused' },
  { from: `${INDEX} test_map_access`, expr: 'any(http.request.headers["a"][*] eq "b")', wirefilter: 'accepted' },
  { from: `${INDEX} test_map_access`, expr: 'any(http.request.headers["😍"][*] eq "b")', wirefilter: 'accepted' },
  { from: `${INDEX} test_access_with_non_string`, expr: 'http.request.headers.names[a] eq "b"', wirefilter: 'refused' },
  { from: `${INDEX} test_access_with_non_string`, expr: 'any(http.request.headers[a][*] eq "b")', wirefilter: 'refused' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[0][*] eq "a")', wirefilter: 'accepted' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[*][0] eq "a")', wirefilter: 'accepted' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[*][*] eq "a")', wirefilter: 'accepted' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[0][*][*] eq "a")', wirefilter: 'refused' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[*][0][*] eq "a")', wirefilter: 'refused' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[*][*][0] eq "a")', wirefilter: 'refused' },
  { from: `${INDEX} test_mapeach`, expr: 'any(http.request.body.multipart.names[*][*][*] eq "a")', wirefilter: 'refused' },

  // --- logical expressions: LogicalExpr (t, f: Bool; at, af: Array(Bool) written as per-element comparisons)
  { from: LOGICAL, expr: 'ssl and ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'ssl or ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'ssl xor ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'ssl or ssl && ssl and ssl or ssl ^^ ssl and ssl || ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'ssl and (ssl or ssl)', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'ssl and (ssl or (ssl and ssl))', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'any((http.request.headers.names[*] eq "a" and http.request.headers.values[*] eq "b"))', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'ssl and http.request.headers.names[*] eq "a"', wirefilter: 'refused' },
  { from: LOGICAL, expr: 'http.request.headers.names[*] eq "a" and ssl', wirefilter: 'refused' },
  { from: LOGICAL, expr: 'ssl or http.request.headers.names[*] eq "a"', wirefilter: 'refused' },
  { from: LOGICAL, expr: 'ssl xor http.request.headers.names[*] eq "a"', wirefilter: 'refused' },
  { from: LOGICAL, expr: '((ssl))', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'not ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: '!ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: '!!ssl', wirefilter: 'accepted' },
  { from: LOGICAL, expr: '! (not !ssl)', wirefilter: 'accepted' },
  { from: LOGICAL, expr: 'any(ssl)', wirefilter: 'refused' },
  { from: LOGICAL, expr: 'not ssl && ssl', wirefilter: 'accepted' },

  // --- whole filters: Scheme::parse errors
  { from: `${SCHEME} test_parse_error`, expr: 'xyz', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'xyz\n', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'cf.edge.server_port == 10 or\ncf.edge.server_port == true or\ncf.edge.server_port == 20', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'http.request.headers.names and http.request.headers.names', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'http.host in {', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'http.host in {"a"', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'cf.edge.server_port in {', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error`, expr: 'concat(0, 0) == 0', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'ssl in {0}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'ssl in {127.0.0.1}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'ssl in {"test"}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'cf.edge.server_port in {127.0.0.1}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'cf.edge.server_port in {"test"}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'ip.src in {666}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'ip.src in {"test"}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'http.host in {0}', wirefilter: 'refused' },
  { from: `${SCHEME} test_parse_error_in_op`, expr: 'http.host in {127.0.0.1}', wirefilter: 'refused' },
  ...['0', '127.0.0.1', '"test"'].map((v): ConformanceRow => ({ from: `${SCHEME} test_parse_error_in_op`, expr: `http.request.headers.names in {${v}}`, wirefilter: 'refused' })),
  ...(['eq', 'ne', 'ge', 'le', 'gt', 'lt'] as const).flatMap((op): ConformanceRow[] => [
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `cf.edge.server_port ${op} 127.0.0.1`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `cf.edge.server_port ${op} "test"`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `http.host ${op} 0`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `http.host ${op} 256`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `http.host ${op} 127.0.0.1`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `http.request.headers.names ${op} 0`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `http.request.headers.names ${op} "test"`, wirefilter: 'refused' },
    { from: `${SCHEME} test_parse_error_ordering_op`, expr: `http.request.headers.names ${op} 127.0.0.1`, wirefilter: 'refused' },
  ]),
  { from: `${SCHEME} test_field`, expr: 'x;', wirefilter: 'refused' },
  { from: `${SCHEME} test_field`, expr: 'http..host eq "a"', wirefilter: 'refused' },
  { from: `${SCHEME} test_field`, expr: 'http.# eq "a"', wirefilter: 'refused' },

  // --- the visitor's tests, the crate's example, the C API's tests
  { from: 'ast/visitor.rs tests', expr: 'http.host == "test"', wirefilter: 'accepted' },
  { from: 'ast/visitor.rs tests', expr: 'lower(http.host) == "test"', wirefilter: 'accepted' },
  { from: 'ast/visitor.rs tests', expr: 'lower(lower(http.request.headers.names[*])[*])[0] == "test"', wirefilter: 'accepted' },
  { from: 'lib.rs (crate example)', expr: 'http.request.method != "POST" &&\n  not http.user_agent matches "(googlebot|facebook)" &&\n  cf.edge.server_port in {80 443}', wirefilter: 'accepted' },
  { from: 'ffi/tests/ctests/src/tests.c', expr: 'cf.edge.server_port == 80', wirefilter: 'accepted' },
  { from: 'ffi/tests/ctests/src/tests.c', expr: 'cf.edge.server_port == "wirefilter"', wirefilter: 'refused' },

  // --- read from the lexer, not from a test: the cases the brief names
  { from: 'source: ast/logical_expr.rs lex_simple_expr (UnaryOp::lex matches "not" as a prefix)', expr: 'notssl', wirefilter: 'accepted' },
  { from: 'source: ast/logical_expr.rs lex_combining_op (LogicalOp::lex matches a prefix)', expr: 'ssl andssl', wirefilter: 'accepted' },
  { from: 'source: ast/logical_expr.rs lex_combining_op', expr: 'ssl orssl', wirefilter: 'accepted' },
  { from: 'source: ast/field_expr.rs lex_with_lhs (ComparisonOp::lex matches a prefix)', expr: 'cf.edge.server_port eq80', wirefilter: 'accepted' },
  { from: 'source: ast/field_expr.rs lex_with_lhs (no operator after a Boolean: IsTrue)', expr: 'ssl eq80', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs lex_with_lhs (no operator after a Boolean: IsTrue)', expr: 'ssl eqfoo', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs lex_with_lhs (no operator after a Boolean: IsTrue)', expr: 'ssl eq true', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs lex_with_lhs (no operator after a Boolean: IsTrue)', expr: 'starts_with(http.host, "a") eqtrue', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs lex_with_lhs, then lex_combining_op (a prefix after a Boolean)', expr: 'ssl andcf.bot_management.verified_bot', wirefilter: 'accepted' },
  { from: 'source: ast/field_expr.rs RhsValues::lex_with (a set holds literals only)', expr: 'http.host in {http.referer}', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs RhsValue::lex_with (a literal on the right)', expr: 'http.host eq http.referer', wirefilter: 'refused', divergence: DYNAMIC },
  { from: 'source: ast/field_expr.rs RhsValue::lex_with (a literal on the right)', expr: 'len(http.host) >= cf.edge.server_port', wirefilter: 'refused', divergence: DYNAMIC },
  { from: 'source: ast/field_expr.rs RhsValue::lex_with (a literal on the right)', expr: 'any(http.request.headers.names[*] eq lower(http.host))', wirefilter: 'refused', divergence: DYNAMIC },
  { from: 'source: ast/field_expr.rs BytesExpr::lex (contains takes a literal)', expr: 'http.host contains http.referer', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs Regex::lex_with (matches takes a literal)', expr: 'http.host matches http.referer', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs RhsValue::lex_with (a literal on the right; EdgeKit refuses the ordering on an IP, as after a literal)', expr: 'ip.src lt cf.edge.server_ip', wirefilter: 'refused' },
  { from: 'source: ast/field_expr.rs RhsValue::lex_with (a literal on the right; EdgeKit refuses a right side of another type)', expr: 'http.host eq cf.edge.server_port', wirefilter: 'refused' },
  { from: 'source: ast/function_expr.rs FunctionCallArgExpr::lex_with (a field-led argument is one comparison)', expr: 'any(http.request.headers.names[*] eq "x" and http.request.headers.values[*] eq "y")', wirefilter: 'refused' },
  { from: 'source: ast/function_expr.rs FunctionCallArgExpr::lex_with (a "not"-led argument is a whole logical expression)', expr: 'any(not http.request.headers.names[*] eq "x" and http.request.headers.values[*] eq "y")', wirefilter: 'accepted' },
  { from: 'source: ast/function_expr.rs FunctionCallArgExpr::lex_with', expr: 'any(starts_with(http.request.headers.names[*], "x") or ends_with(http.request.headers.names[*], "y"))', wirefilter: 'refused' },
  { from: 'source: ast/function_expr.rs FunctionCallArgExpr::lex_with (a "("-led argument is a logical expression)', expr: 'lower((http.host)) eq "a"', wirefilter: 'refused' },
  { from: 'source: ast/function_expr.rs FunctionCallArgExpr::lex_with (a "("-led argument is a logical expression)', expr: 'len((http.request.headers.names)) gt 1', wirefilter: 'refused' },
  { from: 'source: ast/logical_expr.rs ParenthesizedExpr (a LogicalExpr inside)', expr: '(http.host) eq "a"', wirefilter: 'refused' },
  { from: 'source: rhs_types/list.rs ListName::lex (a-z 0-9 _ .)', expr: 'ip.src in $Hello', wirefilter: 'refused', divergence: LIST_CAPITALS },
  { from: 'source: cidr 0.2.3 IpCidr::from_str (short IPv4 forms)', expr: 'ip.src in {10.1/16}', wirefilter: 'accepted' },
  { from: 'source: cidr 0.2.3 IpCidr::from_str (short IPv4 forms)', expr: 'ip.src in {10 192.168 192.0.2}', wirefilter: 'accepted' },
  { from: 'source: cidr 0.2.3 IpCidr::from_str (short IPv4 forms)', expr: 'ip.src in {010.001.1.1/32}', wirefilter: 'accepted' },
  { from: 'source: cidr 0.2.3 IpCidr::from_str (a part above 255)', expr: 'ip.src in {10.256}', wirefilter: 'refused' },
  { from: 'source: cidr 0.2.3 IpCidr::from_str (host bits)', expr: 'ip.src in {10.1/8}', wirefilter: 'refused' },
  { from: 'source: rhs_types/ip.rs (IpAddr::from_str outside a set)', expr: 'ip.src eq 1.1.1.01', wirefilter: 'refused' },
  { from: 'source: rhs_types/ip.rs (IpAddr::from_str outside a set)', expr: 'ip.src eq 10.1', wirefilter: 'refused' },
  { from: 'source: rhs_types/ip.rs (a range reads IpAddr::from_str)', expr: 'ip.src in {1.1.1.01..1.1.1.9}', wirefilter: 'refused' },
  { from: 'source: rhs_types/ip.rs IpRange::lex (a range reads IpAddr::from_str)', expr: 'ip.src in {10.0.0.0/8..10.1.0.0}', wirefilter: 'refused' },
  { from: 'source: rhs_types/ip.rs IpRange::lex (a range reads IpAddr::from_str)', expr: 'ip.src in {10.0.0.0..10.1.0.0/16}', wirefilter: 'refused' },
];
