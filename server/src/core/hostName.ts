// A host name in ASCII, for the language server (the generated sample's zone) and the extension (a zone's document names); and the
// names Windows keeps for its devices, which no file of a zone's (the extension's documents, the mock's delivery folders) may take.
// Pure, no imports: the extension may import it (test/unit/imports.test.ts).

/** A host name in ASCII: an internationalised one ("bücher.test") as its A-labels ("xn--bcher-kva.test"), which is how the Host
 * header and the platform's logs write it (the WHATWG URL parser's IDNA, in Node and in the browser alike); an ASCII name as it is;
 * undefined when it is none (a space, a slash, a label IDNA refuses). */
export function asciiHost(name: string): string | undefined {
  if (!/[^\x00-\x7f]/.test(name)) return name;
  if (/[\s/\\?#@:%]/.test(name)) return undefined;
  try {
    return new URL(`http://${name}/`).hostname;
  } catch {
    return undefined;
  }
}

/** The start of a name that Windows reads as a device, whatever follows a dot after it ("NUL", "aux.io", "COM1.log.gz"): a file of
 * that name, which Node's fs makes (it names absolute paths literally), is one Explorer, cmd and Git for Windows cannot handle. Case-blind; ¹ ² ³ count as digits there (Microsoft's "Naming Files, Paths, and Namespaces"). */
export const WINDOWS_DEVICE_NAME = /^(?:con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(?=\.|$)/i;
