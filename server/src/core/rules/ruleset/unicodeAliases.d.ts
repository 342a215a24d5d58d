// Types of the two alias tables (the packages ship none): Unicode's PropertyAliases and PropertyValueAliases as ECMAScript takes them.
declare module 'unicode-property-aliases-ecmascript' {
  /** Alias → canonical property name ("Alpha" → "Alphabetic", "gc" → "General_Category"). */
  const aliases: ReadonlyMap<string, string>;
  export default aliases;
}
declare module 'unicode-property-value-aliases-ecmascript' {
  /** Property → (alias → canonical value): "General_Category" ("Lu" → "Uppercase_Letter"), "Script" ("Grek" → "Greek"), "Script_Extensions". */
  const aliases: ReadonlyMap<string, ReadonlyMap<string, string>>;
  export default aliases;
}
