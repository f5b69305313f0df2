// Types for the two undici modules the transport imports directly (see src/api/undici.ts).
declare module 'undici/lib/dispatcher/agent.js' {
  const Agent: typeof import('undici').Agent;
  export default Agent;
}
declare module 'undici/lib/api/api-request.js' {
  type Dispatcher = import('undici').Dispatcher;
  const request: (this: Dispatcher, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
  export default request;
}
