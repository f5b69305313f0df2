import { Component, type ReactNode } from 'react';

/** Catches a render error so Ink never paints its stack-trace overview; the caller logs and exits. */
export class ErrorBoundary extends Component<
  { readonly onFatal: (err: unknown) => void; readonly children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(err: unknown) {
    this.props.onFatal(err);
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
