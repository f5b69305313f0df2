export declare const LAYERS: readonly (readonly [string, readonly string[]])[];
export declare function layerOf(path: string): string;
export interface ImportGraph {
  readonly files: number;
  /** "from>to" layer arrows with their counts. */
  readonly arrows: Readonly<Record<string, number>>;
  /** "src/a.ts -> src/b.ts (from>to)" for each import that points up or across. */
  readonly up: readonly string[];
  /** Circles of files at run time (type-only imports left out), each sorted. */
  readonly circles: readonly (readonly string[])[];
  /** Circles that exist only through type imports. */
  readonly typeCircles: readonly (readonly string[])[];
}
export declare function graph(root?: string): ImportGraph;
/** Every file of src/ and what it imports: `edges` all, `runtime` those not erased at build. */
export declare function imports(root?: string): {
  readonly all: readonly string[];
  readonly edges: Map<string, Set<string>>;
  readonly runtime: Map<string, Set<string>>;
};
