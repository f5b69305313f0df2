import type { BuildOptions, Plugin } from 'esbuild';

export declare const BUNDLE_OPTIONS: BuildOptions;
export declare const patchInk: Plugin;
