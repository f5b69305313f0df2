import type { Plugin } from 'esbuild';

export declare const builtinsWithoutFacade: Plugin;
export declare function buildSplit(outdir?: string): Promise<unknown[]>;
export declare function buildSingle(outfile: string): Promise<unknown>;
