/** How a copy went: `via` says where the text went, `why` why it could not go anywhere. The app
 *  layer copies (app/clipboard.ts); the screens say how it went. */
export type CopyResult =
  | { readonly ok: true; readonly via: string }
  | { readonly ok: false; readonly why: string };
